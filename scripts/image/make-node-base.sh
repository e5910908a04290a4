#!/usr/bin/env bash
# The Dockerfile's NODE_IMAGE where no registry can be reached: Debian bookworm
# (debootstrap, minbase variant) with the Node 24 binary of the `node`
# devDependency and the npm that ships with it, laid out as the official
# node:24-slim image is (node and npm under /usr/local, user `node` = uid 1000),
# so the Dockerfile builds the same way on either.
#
# Prints the image's name. Built once per Node version and kept in podman's
# storage: later runs reuse it (PULSEGATE_REBUILD_BASE=1 builds it again).
#
# Needs root (debootstrap), podman, debootstrap and the repository's
# node_modules (npm ci). DEBIAN_MIRROR overrides http://deb.debian.org/debian.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

node_bin="$(readlink -f node_modules/node/bin/node)"
[[ -x "$node_bin" ]] || { echo "make-node-base: node_modules/node/bin/node is missing: run npm ci" >&2; exit 2; }
version="$("$node_bin" --version)"
tag="localhost/pulsegate-node-base:${version#v}-bookworm"
if [[ -z "${PULSEGATE_REBUILD_BASE:-}" ]] && podman image exists "$tag"; then
  echo "$tag"
  exit 0
fi

work="$(mktemp -d /var/tmp/pulsegate-base.XXXXXX)"
trap 'rm -rf "$work"' EXIT
rootfs="$work/rootfs"
echo "make-node-base: debootstrap bookworm (minbase) into $rootfs" >&2
debootstrap --variant=minbase bookworm "$rootfs" "${DEBIAN_MIRROR:-http://deb.debian.org/debian}" >"$work/debootstrap.log" 2>&1 ||
  { tail -n 20 "$work/debootstrap.log" >&2; exit 1; }

# What a container never needs: package lists and caches, documentation, translations.
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/* "$rootfs"/var/cache/debconf/*-old \
  "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/usr/share/locale/*

# Node as node:24-slim installs it, and npm: the version the official image of this Node bundles
# is not known here, so the npm of this machine's npm major, fetched from the registry as a tarball.
install -m 0755 "$node_bin" "$rootfs/usr/local/bin/node"
npm_tarball="$(cd "$work" && npm pack --silent "npm@$(npm --version | cut -d. -f1)")"
npm_version="${npm_tarball#npm-}"
npm_version="${npm_version%.tgz}"
mkdir -p "$rootfs/usr/local/lib/node_modules/npm"
tar -xzf "$work/$npm_tarball" -C "$rootfs/usr/local/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
chroot "$rootfs" groupadd --gid 1000 node
chroot "$rootfs" useradd --uid 1000 --gid node --shell /bin/bash --create-home node

echo "make-node-base: importing $tag (node $version, npm $npm_version)" >&2
tar -C "$rootfs" -c . | podman import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_VERSION=${version#v}" \
  --change 'CMD ["node"]' \
  - "$tag" >/dev/null
echo "$tag"
