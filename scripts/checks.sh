#!/usr/bin/env bash
# The static checks of `npm test` (after the build, before the tests), CHECK_JOBS at a time
# (default 2: each check is one mostly single-threaded process, and this machine has 2 cores),
# longest first. Each check's output is printed whole, in this order, once all have ended; the run
# fails when any check fails, naming every one that did. Usage: scripts/checks.sh [script ...]
# (npm scripts; default: all of them).
set -uo pipefail

cd "$(dirname "$0")/.."

checks=("$@")
[ "${#checks[@]}" -gt 0 ] || checks=(lint:code typecheck format:check types:check cycles lint)

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

started=$SECONDS
# Each check writes its output to <n>.log and its exit status to <n>.status.
for i in "${!checks[@]}"; do echo "$i ${checks[$i]}"; done |
  xargs -P "${CHECK_JOBS:-2}" -L 1 sh -c \
    'npm run --silent "$2" >"$0/$1.log" 2>&1; echo $? >"$0/$1.status"' "$out"

failed=()
for i in "${!checks[@]}"; do
  echo "== npm run ${checks[$i]}"
  cat "$out/$i.log"
  [ "$(cat "$out/$i.status" 2>/dev/null)" = 0 ] || failed+=("${checks[$i]}")
done
echo "== static checks: ${#checks[@]} in $((SECONDS - started)) s"
if [ "${#failed[@]}" -gt 0 ]; then
  echo "failed: ${failed[*]}" >&2
  exit 1
fi
