#!/usr/bin/env bash
# CI step: build the container image from the Dockerfile and prove it works, the way
# /work/shared/containers.md says podman runs on these machines (no registry, runc, cgroupfs,
# host network). Steps:
#   1. podman, runc, debootstrap: installed with apt-get when missing; still missing -> exit 1.
#   2. the base image node:24-bookworm-slim: a local stand-in (scripts/container-standin.sh,
#      cached in podman's storage), since nothing can be pulled.
#   3. podman build --pull=never --network=host, with this machine's CA and registry for npm.
#   4. run the image (the mock, its default job) on a free port; wait for GET /healthz and for
#      the image's own HEALTHCHECK to pass.
#   5. run the contract suite from the image against that mock: exit 0, reports in a mounted folder;
#      then the per-test controls through its admin API with curl (scripts/qa-controls-smoke.sh).
#   6. SIGTERM the mock: it must exit 0 within the shutdown grace (10 s) plus a margin.
# Prints the image's size and the mock's start time (container start to first /healthz answer);
# fails when the image's layers above the base exceed 120 MB.
set -euo pipefail

cd "$(dirname "$0")/.."

IMAGE="${IMAGE:-web-data-api-double:ci}"
GRACE_S=10   # SHUTDOWN_GRACE_MS in src/net/listen.ts
STOP_LIMIT_S=$((GRACE_S + 5))
CA=/etc/ssl/certs/ca-certificates.crt

# podman (rootful here), apt-get, debootstrap and chroot need root: as root, or through sudo.
if [ "$(id -u)" -eq 0 ]; then ROOT=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then ROOT=(sudo -n)
else echo "ci-container: needs root or passwordless sudo (podman, apt-get, debootstrap): failing" >&2; exit 1
fi
as_root() { "${ROOT[@]}" "$@"; }

echo "== container tools (podman, runc, debootstrap)"
missing=()
for tool in podman:podman runc:runc debootstrap:debootstrap; do
  if command -v "${tool%%:*}" >/dev/null 2>&1 || [ -x "/usr/sbin/${tool%%:*}" ]; then
    echo "${tool%%:*} present"
  else
    missing+=("${tool#*:}")
  fi
done
if [ "${#missing[@]}" -gt 0 ]; then
  command -v apt-get >/dev/null 2>&1 || { echo "ci-container: missing ${missing[*]} and no apt-get" >&2; exit 1; }
  as_root sh -c "apt-get update && apt-get install -y --no-install-recommends ${missing[*]}"
fi
export PATH="$PATH:/usr/sbin:/sbin"
for tool in podman runc debootstrap; do
  command -v "$tool" >/dev/null 2>&1 || { echo "ci-container: $tool is still missing: failing" >&2; exit 1; }
done

# Settings podman needs on these kernels (containers.md): no default ulimits, cgroupfs, runc.
conf=$(mktemp /tmp/containers.XXXXXX.conf)
cat >"$conf" <<'EOF'
[containers]
default_ulimits = []
[engine]
cgroup_manager = "cgroupfs"
EOF
export CONTAINERS_CONF="$conf"
PODMAN=(env CONTAINERS_CONF="$CONTAINERS_CONF" podman --runtime runc)
pod() { as_root "${PODMAN[@]}" "$@"; }

name="web-data-ci-$$"
reports=$(mktemp -d /tmp/web-data-reports.XXXXXX)
cleanup() {
  pod rm -f -t 0 "$name" >/dev/null 2>&1 || true
  rm -rf "$conf" "$reports"
}
trap cleanup EXIT

echo "== base image (stand-in for docker.io/library/node:24-bookworm-slim)"
as_root env CONTAINERS_CONF="$CONTAINERS_CONF" PATH="$PATH" bash scripts/container-standin.sh

echo "== podman build"
# npm inside the build needs this machine's registry and CA (its mirror's certificate). podman
# 4.3's `build --env` sets the image's configuration but does not reach RUN steps (tried), so
# the settings go in as npm's global config on a volume over /usr/local/etc (empty in the base):
# present while RUN steps run, never committed to a layer, and the Dockerfile stays as is.
npmrc_dir=$(mktemp -d /tmp/web-data-npmrc.XXXXXX)
printf 'registry=%s\n' "$(npm config get registry)" >"$npmrc_dir/npmrc"
build_mounts=(--volume "$npmrc_dir:/usr/local/etc:ro")
if [ -f "$CA" ]; then
  printf 'cafile=%s\n' "$CA" >>"$npmrc_dir/npmrc"
  build_mounts+=(--volume "$CA:$CA:ro")
fi
started=$(date +%s)
pod build --format docker --pull=never --network=host "${build_mounts[@]}" -t "$IMAGE" . >"$reports/build.log" 2>&1 ||
  { tail -40 "$reports/build.log"; exit 1; }
rm -rf "$npmrc_dir"
echo "built $IMAGE in $(($(date +%s) - started)) s"
size=$(pod image inspect --format '{{.Size}}' "$IMAGE")
base_size=$(pod image inspect --format '{{.Size}}' docker.io/library/node:24-bookworm-slim)
echo "image size: $((size / 1000000)) MB ($size bytes; the stand-in base is $((base_size / 1000000)) MB of it, the layers above it $(((size - base_size) / 1000000)) MB, limit 120 MB)"
[ $((size - base_size)) -le 120000000 ] || { echo "ci-container: the image's layers above the base are more than 120 MB (docs/dependencies.md)" >&2; exit 1; }

port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
echo "== run the mock (default job) on port $port"
t0=$(date +%s%N)
# stderr aside: without systemd, podman logs that it cannot schedule the periodic health checks
# (the check itself runs below, with `podman healthcheck run`).
# The image binds 0.0.0.0: a short or documented admin token is refused there (exit 2), so a fresh one.
admin_token=$(node -e "console.log(require('crypto').randomBytes(16).toString('hex'))")
pod run -d --name "$name" --network=host --env "PORT=$port" --env "MOCK_ADMIN_TOKEN=$admin_token" "$IMAGE" >/dev/null 2>"$reports/run.err" ||
  { cat "$reports/run.err"; exit 1; }
ready=""
for _ in $(seq 1 300); do
  if body=$(curl -fsS "http://127.0.0.1:$port/healthz" 2>/dev/null); then ready=1; break; fi
  if [ "$(pod inspect --format '{{.State.Running}}' "$name")" != true ]; then break; fi
  sleep 0.1
done
t1=$(date +%s%N)
if [ -z "$ready" ]; then pod logs "$name" | tail -20; echo "ci-container: /healthz never answered" >&2; exit 1; fi
[ "$body" = '{"status":"ok"}' ] || { echo "ci-container: /healthz said $body" >&2; exit 1; }
echo "start time: $(((t1 - t0) / 1000000)) ms from podman run to the first /healthz answer"
pod logs "$name" | grep -m1 'ready in' || true
pod healthcheck run "$name" >/dev/null || { echo "ci-container: the image's HEALTHCHECK failed" >&2; exit 1; }
echo "HEALTHCHECK: healthy"

echo "== the contract suite from the image against the mock in the image"
chmod 0777 "$reports"
set +e
pod run --rm --network=host --volume "$reports:/reports" \
  --env CONTRACT_API_KEY=demo-unlimited-key --env CONTRACT_RESTRICTED_API_KEY=demo-no-documents-key \
  "$IMAGE" contract "http://127.0.0.1:$port/web-data/v1" >"$reports/contract.log" 2>&1
status=$?
set -e
tail -15 "$reports/contract.log"
[ "$status" -eq 0 ] || { echo "ci-container: contract suite exited $status" >&2; exit 1; }
for report in contract-report.json contract-summary.md contract-junit.xml; do
  [ -s "$reports/$report" ] || { echo "ci-container: no $report in the mounted folder" >&2; exit 1; }
done
echo "contract suite: exit 0, reports written to the mounted folder"

echo "== the per-test controls through the admin API (curl), in the container"
bash scripts/qa-controls-smoke.sh "http://127.0.0.1:$port" "$admin_token"

echo "== SIGTERM"
t0=$(date +%s%N)
pod kill --signal TERM "$name" >/dev/null
exit_code=$(as_root timeout "$STOP_LIMIT_S" "${PODMAN[@]}" wait "$name" 2>/dev/null || true)
t1=$(date +%s%N)
if [ -z "$exit_code" ]; then echo "ci-container: still running ${STOP_LIMIT_S} s after SIGTERM" >&2; exit 1; fi
[ "$exit_code" = 0 ] || { pod logs "$name" | tail -10; echo "ci-container: exit $exit_code after SIGTERM" >&2; exit 1; }
echo "stopped cleanly (exit 0) $(((t1 - t0) / 1000000)) ms after SIGTERM (grace ${GRACE_S} s)"
echo "== container: ok"
