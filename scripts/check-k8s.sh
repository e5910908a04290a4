#!/usr/bin/env bash
# Renders the Kubernetes manifests in deploy/k8s with `kubectl kustomize` and
# validates every rendered object offline (no cluster, no network):
#
#   1. schema  - the Kubernetes OpenAPI schema, as the JSON-schema validators
#                that the npm package `kubernetes-models` ships (ajv, compiled
#                from the upstream spec): types, required fields, enums, formats.
#   2. strict  - unknown or misspelt fields (what `kubectl --validate=strict` or
#                `kubeconform -strict` reject), which the JSON schema above
#                allows: each object is type-checked by tsc against the same
#                package's TypeScript interfaces.
#   3. policy  - Pulsegate's own rules: hardened pods (non-root, read-only root
#                with an emptyDir /tmp, no capabilities, no privilege
#                escalation, RuntimeDefault seccomp), requests and limits,
#                probes, one `pulsegate` image (plus a pinned Redis), and
#                references that resolve (selectors, ports, ConfigMaps,
#                Secrets, HPA targets); exposure: no overlay's Ingress routes
#                /admin, auth's signing port and Redis admit only their
#                callers, Redis fsyncs an append-only file.
#
# Usage: scripts/check-k8s.sh [KUSTOMIZATION_DIR...]
#   With no argument: deploy/k8s/base, every deploy/k8s/overlays/*, and
#   production plus the opt-in components (admin-ingress, redis), so that
#   those are validated too.
#   Exit status: 0 when everything is valid, 1 when something is not,
#   2 when a tool or dependency is missing.
#
# The checks themselves are scripts/check-k8s.ts (schema, running tsc) and
# scripts/lib/k8s-checks.ts (the rules, as pure functions, with unit tests).
#
# Needs: kubectl (Debian package kubernetes-client), Node >= 22, and the
# devDependencies kubernetes-models, yaml and typescript in node_modules.
# Environment: KUBECTL, PULSEGATE_NODE to override the tools; EXTERNAL_SECRETS
# (space-separated, default "pulsegate-secrets pulsegate-db-app redis-credentials
# pulsegate-tls pulsegate-admin-tls") names Secrets that may be referenced without being
# rendered, because they are created out of band (by an operator, by CloudNativePG for
# components/cloudnative-pg, by cert-manager or by hand for the Ingresses' certificates);
# PG_MAX_CONNECTIONS (default 100) is an external PostgreSQL's max_connections, for the
# connection budget; REQUIRE_DIGEST=1 makes an undigested production image an error
# instead of a warning (for the release pipeline, after `kustomize edit set image`).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

kubectl="${KUBECTL:-kubectl}"
# Not $NODE: npm sets that to the node running npm, which may be older.
NODE="${PULSEGATE_NODE:-}"
if [[ -z "$NODE" ]]; then
  if [[ -x node_modules/.bin/node ]]; then NODE=node_modules/.bin/node; else NODE=node; fi
fi

die() { echo "check-k8s: $*" >&2; exit 2; }
command -v "$kubectl" >/dev/null || die "kubectl not found (apt-get install kubernetes-client, or set KUBECTL)"
command -v "$NODE" >/dev/null || die "node not found (set PULSEGATE_NODE)"
node_version="$("$NODE" --version)"
node_major="${node_version#v}"
[[ "${node_major%%.*}" -ge 22 ]] 2>/dev/null || die "$NODE is Node $node_version; Node >= 22 is needed"
for dep in kubernetes-models/package.json @kubernetes-models/prometheus-operator/package.json yaml/package.json typescript/bin/tsc; do
  [[ -e "node_modules/$dep" ]] ||
    die "node_modules/${dep%%/*} is missing: add the devDependency and run npm ci"
done

# Inside node_modules, so that the TypeScript program scripts/check-k8s.ts
# generates there resolves kubernetes-models like any project file.
mkdir -p node_modules/.cache
work="$(mktemp -d node_modules/.cache/check-k8s.XXXXXX)"
trap 'rm -rf "$work"' EXIT

if [[ $# -gt 0 ]]; then
  targets=("$@")
else
  targets=(deploy/k8s/base)
  for dir in deploy/k8s/overlays/*/; do targets+=("${dir%/}"); done
  # No overlay includes the opt-in components: render them on production.
  mkdir -p "$work/production+opt-in"
  # kustomize takes relative paths only; $work is node_modules/.cache/X.
  cat >"$work/production+opt-in/kustomization.yaml" <<'YAML'
namespace: pulsegate
resources: [../../../../deploy/k8s/overlays/production]
components: [../../../../deploy/k8s/components/admin-ingress, ../../../../deploy/k8s/components/redis, ../../../../deploy/k8s/components/monitoring]
YAML
  targets+=("$work/production+opt-in")
  mkdir -p "$work/production+cloudnative-pg"
  cat >"$work/production+cloudnative-pg/kustomization.yaml" <<'YAML'
namespace: pulsegate
resources: [../../../../deploy/k8s/overlays/production]
components: [../../../../deploy/k8s/components/cloudnative-pg]
YAML
  targets+=("$work/production+cloudnative-pg")
fi

echo "check-k8s: kubectl $("$kubectl" version --client 2>/dev/null | tr '\n' ' ')"
echo "check-k8s: node $("$NODE" --version), kubernetes-models $(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' node_modules/kubernetes-models/package.json | head -n 1)"

status=0
render_failures=0
renders=()
for target in "${targets[@]}"; do
  [[ -f "$target/kustomization.yaml" || -f "$target/kustomization.yml" || -f "$target/Kustomization" ]] ||
    die "$target has no kustomization.yaml"
  label="${target#deploy/k8s/}"
  label="${label#"$work/"}"
  out="$work/render-${#renders[@]}-$render_failures.yaml"
  if "$kubectl" kustomize "$target" >"$out" 2>"$out.err"; then
    echo "rendered $target"
    renders+=("$label=$out")
  else
    echo "FAIL render $target:" >&2
    sed 's/^/  /' "$out.err" >&2
    render_failures=$((render_failures + 1))
    status=1
  fi
done

cat >"$work/package.json" <<'JSON'
{ "type": "module", "private": true }
JSON

# The dashboard and alerting rules against the metrics the services export.
echo "check-observability: dashboards and PrometheusRule"
"$NODE" -C @pulsegate/source scripts/check-observability.ts || status=1

if [[ ${#renders[@]} -gt 0 ]]; then
  CHECK_K8S_WORK="$work" RENDER_FAILURES=$render_failures "$NODE" -C @pulsegate/source scripts/check-k8s.ts "${renders[@]}" || status=1
else
  echo "check-k8s: 0 passed, $render_failures failed"
fi
exit $status
