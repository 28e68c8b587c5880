#!/bin/sh
# The image's entry point: one image, three jobs, chosen by the first argument.
#   mock [flags]                 the mock (the default; also when the first argument is a flag)
#   contract [flags] [base-url]  the contract suite; reports go to $CONTRACT_REPORT_DIR (/reports)
#   proxy <live-url> [flags]     the key-holding proxy (key from WEB_DATA_API_KEY or --api-key-file)
#   anything else                run as a command (sh, node, ...)
# The mock and the proxy listen on $HOST:$PORT (0.0.0.0:4010 in the image); a --host or --port
# given after the job wins. `exec` makes the program PID 1, so SIGTERM reaches it directly.
set -e

serve() {
  exec web-data-mock --host "${HOST:-0.0.0.0}" --port "${PORT:-4010}" "$@"
}

case "${1:-mock}" in
  mock) [ $# -gt 0 ] && shift; serve "$@" ;;
  proxy) shift; serve --proxy "$@" ;;
  contract) shift; exec web-data-contract "$@" ;;
  -*) serve "$@" ;;
  *) exec "$@" ;;
esac
