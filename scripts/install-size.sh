#!/usr/bin/env bash
# What the package costs to install, measured the two ways it is installed:
#   1. a user's `npm install`: `npm pack`, then the tarball into an empty project with the
#      production dependencies only (`npm install --omit=dev`, no lock file: what a user gets);
#   2. the container image's dependency layer: the lock file's production tree, installed as the
#      Dockerfile does (`npm ci --omit=dev --ignore-scripts`).
# Prints the bytes on disk (`du -sb`) and the number of packages (folders node_modules/<name> or
# node_modules/@scope/<name> with a package.json, at any depth) of each, and the largest packages;
# exits 1 when the user's install is above USER_INSTALL_LIMIT_MB (default 30: the mock alone, without the
# suite's vitest) or the image's layer above INSTALL_SIZE_LIMIT_MB (default 100: it carries vitest for its
# contract job); 1 MB = 1,000,000 bytes.
# What each large package is for: docs/dependencies.md.
set -euo pipefail

cd "$(dirname "$0")/.."

USER_LIMIT_MB="${USER_INSTALL_LIMIT_MB:-30}"
IMAGE_LIMIT_MB="${INSTALL_SIZE_LIMIT_MB:-100}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failed=0

# measure <project folder> <what it is> <limit in MB>
measure() {
  local modules="$1/node_modules" bytes packages limit="$3"
  bytes=$(du -sb "$modules" | cut -f1)
  packages=$(find "$modules" -name package.json |
    grep -Ec '(^|/)node_modules/(@[^/]+/)?[^/@]+/package\.json$' || true)
  echo "$2: $((bytes / 1000000)) MB ($bytes bytes), $packages packages (limit $limit MB)"
  # Two du runs: one run counts a folder once, so a scope given before its packages hides them.
  echo "  largest: $(cd "$modules" && { du -sb -- [!@]*; du -sb -- @*/*; } 2>/dev/null |
    sort -rn | head -6 | awk '{printf "%s%s %.1f MB", (NR > 1 ? ", " : ""), $2, $1 / 1e6}')"
  if [ "$bytes" -gt $((limit * 1000000)) ]; then
    echo "install-size: $2 is above $limit MB" >&2
    failed=1
  fi
}

echo "== install size"
# `prepare` builds dist/ first, as for a publish.
tarball=$(npm pack --silent --pack-destination "$work" | tail -1)
mkdir "$work/user" "$work/image"
echo '{"name":"install-size-probe","version":"0.0.0","private":true}' >"$work/user/package.json"
(cd "$work/user" && npm install --omit=dev --prefer-offline --no-audit --no-fund --loglevel=error "../$tarball" >/dev/null)
measure "$work/user" "npm install --omit=dev of the packed package" "$USER_LIMIT_MB"

cp package.json package-lock.json "$work/image/"
(cd "$work/image" && npm ci --omit=dev --ignore-scripts --prefer-offline --no-audit --no-fund --loglevel=error >/dev/null)
measure "$work/image" "npm ci --omit=dev from the lock file (the image's dependency layer)" "$IMAGE_LIMIT_MB"

exit "$failed"
