#!/usr/bin/env bash
# The static checks of `npm test` (after the build, before the tests), CHECK_JOBS at a time
# (default 2: each check is one mostly single-threaded process, and this machine has 2 cores),
# longest first. Once all have ended, each check gets one line in this order: "ok" and its time,
# or "FAILED" followed by its whole output (CHECKS_VERBOSE=1 prints every check's output). The run
# fails when any check fails, naming every one that did. Usage: scripts/checks.sh [script ...]
# (npm scripts; default: all of them).
set -uo pipefail

cd "$(dirname "$0")/.."

checks=("$@")
[ "${#checks[@]}" -gt 0 ] || checks=(lint:code typecheck format:check types:check cycles lint)

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

started=$SECONDS
# Each check writes its output to <n>.log, its exit status to <n>.status, its seconds to <n>.time.
for i in "${!checks[@]}"; do echo "$i ${checks[$i]}"; done |
  xargs -P "${CHECK_JOBS:-2}" -L 1 sh -c \
    's=$(date +%s); npm run --silent "$2" >"$0/$1.log" 2>&1; echo $? >"$0/$1.status"; echo $(($(date +%s) - s)) >"$0/$1.time"' "$out"

failed=()
for i in "${!checks[@]}"; do
  took="$(cat "$out/$i.time" 2>/dev/null || echo '?') s"
  if [ "$(cat "$out/$i.status" 2>/dev/null)" = 0 ]; then
    echo "ok      npm run ${checks[$i]} ($took)"
    [ "${CHECKS_VERBOSE:-0}" = 1 ] && cat "$out/$i.log"
  else
    failed+=("${checks[$i]}")
    echo "FAILED  npm run ${checks[$i]} ($took):"
    cat "$out/$i.log"
  fi
done
echo "== static checks: ${#checks[@]} in $((SECONDS - started)) s"
if [ "${#failed[@]}" -gt 0 ]; then
  echo "failed: ${failed[*]}" >&2
  exit 1
fi
