#!/usr/bin/env bash
# The shipped artifact, tested: builds the image from the Dockerfile with podman, checks what it
# holds, and runs every workload of the production overlay from it as a cluster would
# (scripts/image/smoke-test.ts), then removes the containers, the image and the test database.
#
# No Docker engine or registry is needed: the Dockerfile's NODE_IMAGE is made from Debian
# packages and the `node` devDependency (scripts/image/make-node-base.sh), once, and kept.
# Needs: root, podman and runc (`apt-get install podman runc`; crun refuses this machine's
# cgroups, so runc is used), debootstrap, kubectl (kubernetes-client), the repository's
# node_modules (npm ci), PostgreSQL and Redis on 127.0.0.1 as for the tests.
# Environment: NPM_CAFILE (default /etc/ssl/certs/ca-certificates.crt) is handed to npm inside the
# build as a build secret, for networks that inspect TLS; PULSEGATE_KEEP_IMAGE=1 keeps the image.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

die() { echo "check-image: $*" >&2; exit 2; }
[[ "$(id -u)" -eq 0 ]] || die "needs root (rootful podman, debootstrap); run it with sudo"
for tool in podman:podman runc:runc debootstrap:debootstrap kubectl:kubernetes-client; do
  command -v "${tool%%:*}" >/dev/null || die "${tool%%:*} not found: apt-get install ${tool#*:}"
done
[[ -x node_modules/.bin/node ]] || die "node_modules is missing: run npm ci"
node=node_modules/.bin/node

# podman's settings for these machines, without touching /etc: runc with cgroupfs, and no
# default ulimits (the kernel here refuses podman's).
conf="$(mktemp)"
cat >"$conf" <<'CONF'
[containers]
default_ulimits = []
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
CONF
export CONTAINERS_CONF="$conf"
tag="localhost/pulsegate:check-$$"
cleanup() {
  [[ -n "${PULSEGATE_KEEP_IMAGE:-}" ]] || podman rmi --force "$tag" >/dev/null 2>&1 || true
  # The build's intermediate stages are its layer cache (the next run's npm ci is cached while
  # the lockfile stays): kept three days.
  podman image prune --force --filter until=72h >/dev/null 2>&1 || true
  rm -f "$conf"
}
trap cleanup EXIT

started=$SECONDS
base="$(bash scripts/image/make-node-base.sh)"
echo "check-image: base $base ($((SECONDS - started)) s)"

cafile="${NPM_CAFILE:-/etc/ssl/certs/ca-certificates.crt}"
secret=()
[[ -f "$cafile" ]] && secret=(--secret "id=npm_cafile,src=$cafile")
build_started=$SECONDS
podman build --quiet --layers --build-arg "NODE_IMAGE=$base" "${secret[@]}" --tag "$tag" . >/dev/null
echo "check-image: built $tag ($((SECONDS - build_started)) s)"

"$node" -C @pulsegate/source scripts/image/image-contents.ts "$tag"
"$node" -C @pulsegate/source scripts/image/smoke-test.ts "$tag"
echo "check-image: passed in $((SECONDS - started)) s"
