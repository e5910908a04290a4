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
# Needs: kubectl (Debian package kubernetes-client), Node >= 22, and the
# devDependencies kubernetes-models, yaml and typescript in node_modules.
# Environment: KUBECTL, PULSEGATE_NODE to override the tools; EXTERNAL_SECRETS
# (space-separated, default "pulsegate-secrets") names Secrets that may be
# referenced without being rendered, because they are created out of band.
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
"$NODE" -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 22 ? 0 : 1)' ||
  die "$NODE is Node $("$NODE" --version); Node >= 22 is needed"
for dep in kubernetes-models/package.json @kubernetes-models/prometheus-operator/package.json yaml/package.json typescript/bin/tsc; do
  [[ -e "node_modules/$dep" ]] ||
    die "node_modules/${dep%%/*} is missing: add the devDependency and run npm ci"
done

# Inside node_modules, so that the generated script and TypeScript file
# resolve kubernetes-models, yaml and typescript like any project file.
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
fi

echo "check-k8s: kubectl $("$kubectl" version --client 2>/dev/null | tr '\n' ' ')"
echo "check-k8s: node $("$NODE" --version), kubernetes-models $("$NODE" -p 'require("./node_modules/kubernetes-models/package.json").version')"

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

cat >"$work/validate.mjs" <<'JS'
// Validates rendered manifests: schema, strict fields (via tsc), policy.
// Arguments: NAME=FILE pairs. Prints findings; exits 1 on any error.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseAllDocuments } from "yaml";

const here = dirname(fileURLToPath(import.meta.url));
const external = new Set((process.env.EXTERNAL_SECRETS ?? "pulsegate-secrets").split(/\s+/).filter(Boolean));
let errorCount = 0;
const failedRenders = new Set();
const error = (where, message) => {
  errorCount++;
  failedRenders.add(where.split(" ")[0]);
  console.log(`  ERROR ${where}: ${message}`);
};

// ---- load ------------------------------------------------------------------
const renders = [];
for (const arg of process.argv.slice(2)) {
  const at = arg.indexOf("=");
  const name = arg.slice(0, at);
  const file = arg.slice(at + 1);
  const text = readFileSync(file, "utf8");
  const objects = [];
  for (const [index, doc] of parseAllDocuments(text).entries()) {
    for (const problem of [...doc.errors, ...doc.warnings]) error(`${name} document ${index}`, `YAML: ${problem.message}`);
    const value = doc.toJS();
    if (value === null || value === undefined) continue;
    objects.push(value);
  }
  renders.push({ name, objects });
}

const modelled = new WeakSet(); // objects with a schema, for the strict check
const idOf = (o) => `${o?.kind ?? "?"}/${o?.metadata?.name ?? "?"}`;

// ---- 1. schema -------------------------------------------------------------
// kubernetes-models also keeps schemas of API versions that Kubernetes has
// since stopped serving; these are rejected (deprecated API migration guide).
const removed = {
  "extensions/v1beta1": [1.16, "DaemonSet Deployment ReplicaSet NetworkPolicy PodSecurityPolicy Ingress"],
  "apps/v1beta1": [1.16, "*"],
  "apps/v1beta2": [1.16, "*"],
  "networking.k8s.io/v1beta1": [1.22, "Ingress IngressClass"],
  "rbac.authorization.k8s.io/v1beta1": [1.22, "*"],
  "apiextensions.k8s.io/v1beta1": [1.22, "*"],
  "apiregistration.k8s.io/v1beta1": [1.22, "*"],
  "admissionregistration.k8s.io/v1beta1": [1.22, "MutatingWebhookConfiguration ValidatingWebhookConfiguration"],
  "scheduling.k8s.io/v1beta1": [1.22, "*"],
  "coordination.k8s.io/v1beta1": [1.22, "*"],
  "certificates.k8s.io/v1beta1": [1.22, "*"],
  "storage.k8s.io/v1beta1": [1.22, "CSIDriver CSINode StorageClass VolumeAttachment"],
  "batch/v1beta1": [1.25, "*"],
  "discovery.k8s.io/v1beta1": [1.25, "*"],
  "events.k8s.io/v1beta1": [1.25, "*"],
  "policy/v1beta1": [1.25, "*"],
  "node.k8s.io/v1beta1": [1.25, "*"],
  "autoscaling/v2beta1": [1.25, "*"],
  "autoscaling/v2beta2": [1.26, "*"],
  "flowcontrol.apiserver.k8s.io/v1beta1": [1.26, "*"],
  "flowcontrol.apiserver.k8s.io/v1beta2": [1.29, "*"],
  "flowcontrol.apiserver.k8s.io/v1beta3": [1.32, "*"],
};
const removedIn = (apiVersion, kind) => {
  const [version, kinds] = removed[apiVersion] ?? [];
  return version && (kinds === "*" || kinds.split(" ").includes(kind)) ? version : undefined;
};

// The Prometheus Operator's kinds (components/monitoring) come from their own package.
const modelModule = (apiVersion, kind) =>
  apiVersion.startsWith("monitoring.coreos.com/")
    ? `@kubernetes-models/prometheus-operator/${apiVersion}/${kind}`
    : `kubernetes-models/${apiVersion}/${kind}`;

const modelCache = new Map();
async function modelFor(apiVersion, kind) {
  const key = `${apiVersion}/${kind}`;
  if (!modelCache.has(key)) {
    let model;
    try {
      model = (await import(modelModule(apiVersion, kind)))[kind];
    } catch {
      model = undefined;
    }
    modelCache.set(key, model);
  }
  return modelCache.get(key);
}

for (const render of renders) {
  for (const o of render.objects) {
    const where = `${render.name} ${idOf(o)}`;
    if (typeof o !== "object" || Array.isArray(o)) {
      error(render.name, "a document is not an object");
      continue;
    }
    if (typeof o.apiVersion !== "string" || typeof o.kind !== "string") {
      error(where, "apiVersion and kind are required");
      continue;
    }
    if (typeof o.metadata?.name !== "string" || o.metadata.name === "") error(where, "metadata.name is required");
    const gone = removedIn(o.apiVersion, o.kind);
    if (gone) {
      error(where, `${o.apiVersion} ${o.kind} is no longer served (removed in Kubernetes ${gone})`);
      continue;
    }
    const Model = await modelFor(o.apiVersion, o.kind);
    if (!Model) {
      error(where, `no schema for ${o.apiVersion} ${o.kind} (unknown or removed API)`);
      continue;
    }
    modelled.add(o);
    // kustomize wraps long base64 values over lines; the API server's base64
    // decoder skips line breaks, so the schema's "byte" format must too.
    if (o.kind === "Secret" && o.data && typeof o.data === "object") {
      for (const [k, v] of Object.entries(o.data)) if (typeof v === "string") o.data[k] = v.replace(/[\r\n]/g, "");
    }
    try {
      new Model(o).validate();
    } catch (e) {
      for (const err of e.errors ?? [{ instancePath: "", message: e.message }]) {
        const params = err.params && Object.keys(err.params).length ? ` ${JSON.stringify(err.params)}` : "";
        error(where, `schema: ${err.instancePath || "/"} ${err.message}${params}`);
      }
    }
  }
}

// ---- 2. strict (unknown fields) -------------------------------------------
// TypeScript checks every manifest against kubernetes-models' interfaces,
// one declaration per object and per field, e.g.
//   const v1: At<IDeployment, ["spec", "template"]> = { metadata: .., spec: .. };
//   const v2: At<IDeployment, ["spec", "replicas"]> = 2;
// Excess-property checking and `never` (the type At gives an undefined
// field) reject every field the API does not define; value types and
// required fields are checked too; one finding cannot mask another. A line ->
// (object, field path) map turns tsc's line numbers back into field paths.
{
  const lines = [
    "// generated by scripts/check-k8s.sh",
    "type Step<T, K> = K extends number",
    "  ? NonNullable<T> extends readonly (infer E)[] ? E : never",
    "  : K extends keyof NonNullable<T> ? NonNullable<T>[K] : never;",
    "type At<T, P extends readonly unknown[]> = P extends readonly [infer H, ...infer R] ? At<Step<T, H>, R> : NonNullable<T>;",
  ];
  const origin = lines.map(() => null);
  const push = (line, at) => {
    lines.push(line);
    origin.push(at);
  };
  const imports = new Map();
  const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
  const hasObjects = (v) => Array.isArray(v) && v.some((x) => x !== null && typeof x === "object");
  const show = (path) => path.reduce((s, k) => (typeof k === "number" ? `${s}[${k}]` : s ? `${s}.${k}` : k), "");
  let n = 0;
  const walk = (value, path, alias, where) => {
    if (Array.isArray(value)) {
      value.forEach((v, i) => {
        if (v !== null && typeof v === "object") walk(v, [...path, i], alias, where);
      });
      return;
    }
    // The object's shape: required fields present, no unknown field.
    push(`export const v${n++}: At<${alias}, ${JSON.stringify(path)}> = {`, { where, path: show(path) });
    for (const [k, v] of Object.entries(value)) {
      if (v !== null) push(`  ${JSON.stringify(k)}: null as any,`, { where, path: show([...path, k]) });
    }
    push("};", { where, path: show(path) });
    // Each field on its own, so that no finding masks another. A field the
    // API does not define has type `never` here.
    for (const [k, v] of Object.entries(value)) {
      if (v === null) continue; // the API treats null as absent
      if (isObject(v) || hasObjects(v)) walk(v, [...path, k], alias, where);
      else push(`export const v${n++}: At<${alias}, ${JSON.stringify([...path, k])}> = ${JSON.stringify(v)};`, { where, path: show([...path, k]) });
    }
  };
  for (const render of renders) {
    for (const o of render.objects) {
      if (!modelled.has(o)) continue;
      const spec = modelModule(o.apiVersion, o.kind);
      if (!imports.has(spec)) imports.set(spec, `T${imports.size}`);
      walk(o, [], imports.get(spec), `${render.name} ${idOf(o)}`);
    }
  }
  const header = [...imports].map(([spec, alias]) => {
    const kind = spec.slice(spec.lastIndexOf("/") + 1);
    return `import type { I${kind} as ${alias} } from ${JSON.stringify(spec)};`;
  });
  lines.splice(1, 0, ...header);
  origin.splice(1, 0, ...header.map(() => null));
  writeFileSync(join(here, "objects.ts"), `${lines.join("\n")}\n`);
  writeFileSync(
    join(here, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        target: "es2022",
        module: "nodenext",
        moduleResolution: "nodenext",
        types: [],
      },
      files: ["objects.ts"],
    }),
  );
  let output = "";
  try {
    execFileSync(process.execPath, [join(here, "../../typescript/bin/tsc"), "-p", join(here, "tsconfig.json"), "--pretty", "false"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (e) {
    output = `${e.stdout ?? ""}${e.stderr ?? ""}`;
    if (!output.trim()) output = `objects.ts(1,1): error tsc: ${e.message}`;
  }
  // First line of each diagnostic (continuation lines elaborate). A finding
  // under a field that is already reported (say, fields of a misspelt
  // object, whose type is then `never`) is left out.
  const findings = [];
  for (const line of output.split("\n")) {
    const m = /^(?:.*[\\/])?objects\.ts\((\d+),\d+\): error (TS\d+|tsc): (.*)$/.exec(line);
    if (m) findings.push({ at: origin[Number(m[1]) - 1], message: m[3] });
    else if (/error TS\d+/.test(line)) findings.push({ at: null, message: line.trim() });
  }
  // tsc failed without a diagnostic on objects.ts: it did not run properly.
  if (output.trim() && !findings.length) findings.push({ at: null, message: output.trim().split("\n").slice(0, 5).join(" | ") });
  const reported = [];
  for (const { at, message } of findings) {
    if (!at) {
      error("tsc", message);
      continue;
    }
    const covered = reported.some(
      (r) =>
        r.where === at.where &&
        (r.path === at.path || (r.path && (at.path.startsWith(`${r.path}.`) || at.path.startsWith(`${r.path}[`)))),
    );
    if (covered) continue;
    reported.push(at);
    const text = /is not assignable to type 'never'/.test(message) ? "unknown field (not defined by the API)" : message;
    error(at.where, `strict: ${at.path || "/"}: ${text}`);
  }
}

// ---- 3. policy -------------------------------------------------------------
const matches = (selector, labels) =>
  !!selector && Object.entries(selector).every(([k, v]) => labels?.[k] === v);
const isImage = (image) => /^(?:.+\/)?pulsegate(?::[\w.-]+)?(?:@sha256:[0-9a-f]{64})?$/.test(image ?? "");
// The one other image: Redis (components/redis), pinned to a full version.
const isRedis = (image) => /^(?:.+\/)?redis:\d+\.\d+\.\d+(?:-alpine)?(?:@sha256:[0-9a-f]{64})?$/.test(image ?? "");
// Ports only some workloads may reach: a NetworkPolicy rule admitting one
// must name only those workloads' pods (`app` labels).
const restrictedPorts = [
  { app: "auth", port: "grpc-signing", from: ["alerts"] }, // Sign: an HMAC oracle
  { app: "redis", port: "redis", from: ["gateway", "monitors"] },
];

for (const render of renders) {
  const all = render.objects.filter((o) => o && typeof o === "object");
  const byKind = (kind) => all.filter((o) => o.kind === kind);
  const names = (kind) => new Set(byKind(kind).map((o) => o.metadata?.name));
  const workloads = all.filter((o) => ["Deployment", "Job", "StatefulSet", "DaemonSet"].includes(o.kind));
  const pods = workloads.map((w) => ({ w, t: w.spec?.template ?? {} }));
  const configMaps = names("ConfigMap");
  const secrets = names("Secret");
  const externalUsed = new Set();

  for (const { w, t } of pods) {
    const where = `${render.name} ${idOf(w)}`;
    const pod = t.spec ?? {};
    const psc = pod.securityContext ?? {};
    const tmpVolumes = new Set((pod.volumes ?? []).filter((v) => v.emptyDir).map((v) => v.name));
    if (w.kind !== "Job" && !matches(w.spec?.selector?.matchLabels, t.metadata?.labels)) {
      error(where, "spec.selector.matchLabels does not match the pod template labels");
    }
    if (pod.automountServiceAccountToken !== false) error(where, "automountServiceAccountToken must be false");
    for (const c of [...(pod.initContainers ?? []), ...(pod.containers ?? [])]) {
      const at = `${where} container ${c.name}`;
      const sc = c.securityContext ?? {};
      if (!isImage(c.image) && !isRedis(c.image)) error(at, `image ${c.image} is neither pulsegate nor a pinned redis`);
      if (isRedis(c.image)) {
        const args = [...(c.command ?? []), ...(c.args ?? [])].join(" ");
        if (!/--appendonly yes\b/.test(args) || !/--appendfsync always\b/.test(args)) {
          error(at, "redis must run with --appendonly yes --appendfsync always (the ping spool is acknowledged)");
        }
      }
      if ((sc.runAsNonRoot ?? psc.runAsNonRoot) !== true) error(at, "runAsNonRoot must be true");
      if (sc.readOnlyRootFilesystem !== true) error(at, "readOnlyRootFilesystem must be true");
      if (sc.allowPrivilegeEscalation !== false) error(at, "allowPrivilegeEscalation must be false");
      if (!(sc.capabilities?.drop ?? []).includes("ALL")) error(at, "capabilities.drop must include ALL");
      if ((sc.capabilities?.add ?? []).length) error(at, "capabilities.add must be empty");
      if ((sc.seccompProfile ?? psc.seccompProfile)?.type !== "RuntimeDefault") error(at, "seccompProfile must be RuntimeDefault");
      if (sc.privileged) error(at, "privileged is not allowed");
      for (const kind of ["requests", "limits"]) {
        for (const resource of ["cpu", "memory"]) {
          if (c.resources?.[kind]?.[resource] === undefined) error(at, `resources.${kind}.${resource} is missing`);
        }
      }
      if (!(c.volumeMounts ?? []).some((m) => m.mountPath === "/tmp" && tmpVolumes.has(m.name))) {
        error(at, "/tmp must be an emptyDir volume (the root filesystem is read-only)");
      }
      for (const p of c.ports ?? []) if (!p.name) error(at, `port ${p.containerPort} has no name`);
      if ((w.kind === "Deployment" || w.kind === "StatefulSet") && !pod.initContainers?.includes(c)) {
        if (!c.readinessProbe) error(at, "readinessProbe is missing");
        if (!c.livenessProbe) error(at, "livenessProbe is missing");
      }
      const refs = [
        ...(c.envFrom ?? []).map((e) => ["ConfigMap", e.configMapRef?.name, e.configMapRef?.optional]),
        ...(c.envFrom ?? []).map((e) => ["Secret", e.secretRef?.name, e.secretRef?.optional]),
        ...(c.env ?? []).map((e) => ["ConfigMap", e.valueFrom?.configMapKeyRef?.name, e.valueFrom?.configMapKeyRef?.optional]),
        ...(c.env ?? []).map((e) => ["Secret", e.valueFrom?.secretKeyRef?.name, e.valueFrom?.secretKeyRef?.optional]),
      ];
      for (const [kind, name, optional] of refs) {
        if (!name || optional) continue;
        if (kind === "ConfigMap" && !configMaps.has(name)) error(at, `ConfigMap ${name} is not rendered`);
        if (kind === "Secret" && !secrets.has(name)) {
          if (external.has(name)) externalUsed.add(name);
          else error(at, `Secret ${name} is not rendered and not in EXTERNAL_SECRETS`);
        }
      }
    }
    for (const v of pod.volumes ?? []) {
      if (v.configMap && !v.configMap.optional && !configMaps.has(v.configMap.name)) error(where, `volume ConfigMap ${v.configMap.name} is not rendered`);
    }
  }

  for (const s of byKind("Service")) {
    const where = `${render.name} ${idOf(s)}`;
    const selected = pods.filter(({ t }) => matches(s.spec?.selector, t.metadata?.labels));
    if (!selected.length) {
      error(where, `selector ${JSON.stringify(s.spec?.selector)} matches no pod template`);
      continue;
    }
    for (const p of s.spec?.ports ?? []) {
      if (typeof p.targetPort !== "string") continue;
      const named = selected.every(({ t }) =>
        (t.spec?.containers ?? []).some((c) => (c.ports ?? []).some((cp) => cp.name === p.targetPort)),
      );
      if (!named) error(where, `targetPort ${p.targetPort} is not a named container port of the selected pods`);
    }
  }

  for (const i of byKind("Ingress")) {
    const backends = (i.spec?.rules ?? []).flatMap((r) => (r.http?.paths ?? []).map((p) => p.backend?.service));
    if (i.spec?.defaultBackend?.service) backends.push(i.spec.defaultBackend.service);
    for (const b of backends.filter(Boolean)) {
      const svc = byKind("Service").find((s) => s.metadata?.name === b.name);
      if (!svc) error(`${render.name} ${idOf(i)}`, `backend Service ${b.name} is not rendered`);
      else if (!(svc.spec?.ports ?? []).some((p) => (b.port?.name ? p.name === b.port.name : p.port === b.port?.number))) {
        error(`${render.name} ${idOf(i)}`, `backend port ${JSON.stringify(b.port)} is not a port of Service ${b.name}`);
      }
    }
  }

  // The admin API (one global token) and the dashboard in front of it stay off the overlays'
  // Ingresses: components/admin-ingress is opt-in. "/" would route /admin too.
  for (const i of /(^|\/)overlays\//.test(render.name) ? byKind("Ingress") : []) {
    for (const p of (i.spec?.rules ?? []).flatMap((r) => r.http?.paths ?? [])) {
      if (p.path === "/" || p.path?.startsWith("/admin") || p.path?.startsWith("/dashboard")) {
        error(`${render.name} ${idOf(i)}`, `routes ${p.path}, which exposes the admin API (use components/admin-ingress)`);
      }
    }
  }

  // A TLS Ingress means admin answers should carry https URLs on its host.
  const gatewayConfig = byKind("ConfigMap").find((c) => /^gateway-config(-[a-z0-9]+)?$/.test(c.metadata?.name ?? ""));
  for (const i of gatewayConfig ? byKind("Ingress").filter((i) => i.spec?.tls?.length) : []) {
    const expected = `https://${i.spec.rules?.[0]?.host}`;
    if (gatewayConfig.data?.PUBLIC_BASE_URL !== expected) {
      error(`${render.name} ${idOf(gatewayConfig)}`, `PUBLIC_BASE_URL should be ${expected} (the TLS host of ${idOf(i)})`);
    }
  }

  const policies = byKind("NetworkPolicy");
  for (const r of policies.length ? restrictedPorts : []) {
    const pod = pods.find(({ t }) => t.metadata?.labels?.app === r.app)?.t;
    if (!pod) continue;
    const number = (pod.spec?.containers ?? []).flatMap((c) => c.ports ?? []).find((p) => p.name === r.port)?.containerPort;
    if (number === undefined) {
      error(`${render.name} ${r.app}`, `no container port named ${r.port}`);
      continue;
    }
    for (const np of policies.filter((np) => matches(np.spec?.podSelector?.matchLabels ?? {}, pod.metadata?.labels))) {
      for (const rule of np.spec?.ingress ?? []) {
        const admits =
          !rule.ports?.length ||
          rule.ports.some((p) => p.port === r.port || p.port === number || (p.endPort && p.port <= number && number <= p.endPort));
        const onlyCallers = rule.from?.length && rule.from.every((peer) =>
          !peer.namespaceSelector && !peer.ipBlock && !peer.podSelector?.matchExpressions &&
          Object.keys(peer.podSelector?.matchLabels ?? {}).length === 1 && r.from.includes(peer.podSelector.matchLabels.app));
        if (admits && !onlyCallers) {
          error(`${render.name} ${idOf(np)}`, `admits ${r.app}:${r.port} (${number}) from more than ${r.from.join(", ")}`);
        }
      }
    }
  }

  // Metrics: every Pulsegate service's pods and Service expose the port `metrics`,
  // and a ServiceMonitor selects Services and scrapes ports they have.
  for (const { w, t } of pods.filter(({ w }) => w.kind === "Deployment" && ["gateway", "auth", "alerts", "monitors"].includes(w.metadata?.name))) {
    if (!(t.spec?.containers ?? []).some((c) => (c.ports ?? []).some((p) => p.name === "metrics"))) {
      error(`${render.name} ${idOf(w)}`, "has no container port named metrics (METRICS_PORT)");
    }
    const svc = byKind("Service").find((s) => s.metadata?.name === w.metadata?.name);
    if (svc && !(svc.spec?.ports ?? []).some((p) => p.name === "metrics")) error(`${render.name} ${idOf(svc)}`, "has no port named metrics");
  }
  const selects = (selector, labels) =>
    matches(selector?.matchLabels ?? {}, labels) &&
    (selector?.matchExpressions ?? []).every((e) =>
      e.operator === "In" ? e.values?.includes(labels?.[e.key]) :
      e.operator === "NotIn" ? !e.values?.includes(labels?.[e.key]) :
      e.operator === "Exists" ? labels?.[e.key] !== undefined : labels?.[e.key] === undefined);
  for (const m of byKind("ServiceMonitor")) {
    const selected = byKind("Service").filter((s) => selects(m.spec?.selector, s.metadata?.labels));
    if (!selected.length) error(`${render.name} ${idOf(m)}`, `selector ${JSON.stringify(m.spec?.selector)} matches no Service`);
    for (const e of m.spec?.endpoints ?? []) {
      for (const s of selected.filter((s) => !(s.spec?.ports ?? []).some((p) => p.name === e.port))) {
        error(`${render.name} ${idOf(m)}`, `endpoint port ${e.port} is not a port of Service ${s.metadata?.name}`);
      }
    }
  }

  for (const h of byKind("HorizontalPodAutoscaler")) {
    const ref = h.spec?.scaleTargetRef ?? {};
    const target = all.find((o) => o.kind === ref.kind && o.metadata?.name === ref.name);
    if (!target) error(`${render.name} ${idOf(h)}`, `scaleTargetRef ${ref.kind}/${ref.name} is not rendered`);
    else if (target.spec?.replicas !== undefined) {
      error(`${render.name} ${idOf(target)}`, "sets spec.replicas although an HPA scales it (each apply would reset the count)");
    }
  }

  for (const p of [...byKind("PodDisruptionBudget"), ...byKind("NetworkPolicy")]) {
    const selector = p.kind === "PodDisruptionBudget" ? p.spec?.selector : p.spec?.podSelector;
    if (!selector?.matchLabels || !Object.keys(selector.matchLabels).length) continue; // selects every pod
    if (!pods.some(({ t }) => matches(selector.matchLabels, t.metadata?.labels))) {
      error(`${render.name} ${idOf(p)}`, `selector ${JSON.stringify(selector.matchLabels)} matches no pod template`);
    }
  }

  const kinds = {};
  for (const o of all) kinds[o.kind] = (kinds[o.kind] ?? 0) + 1;
  console.log(
    `checked ${render.name}: ${all.length} objects (${Object.entries(kinds)
      .sort()
      .map(([k, c]) => `${c} ${k}`)
      .join(", ")})`,
  );
  if (externalUsed.size) console.log(`  note: expects existing Secret(s) in the cluster: ${[...externalUsed].join(", ")}`);
}

const total = renders.reduce((sum, r) => sum + r.objects.length, 0);
console.log(`k8s: ${total} objects in ${renders.length} renders checked (schema, strict, policy): ${errorCount} errors`);
// The closing line counts kustomizations; one that failed to render counts
// as failed, and an error not tied to one render fails them all.
const renderFailures = Number(process.env.RENDER_FAILURES ?? 0);
const untied = [...failedRenders].some((name) => !renders.some((r) => r.name === name));
const failedChecks = untied ? renders.length : renders.filter((r) => failedRenders.has(r.name)).length;
console.log(`check-k8s: ${renders.length - failedChecks} passed, ${failedChecks + renderFailures} failed`);
process.exit(errorCount ? 1 : 0);
JS

# The dashboard and alerting rules against the metrics the services export.
echo "check-observability: dashboards and PrometheusRule"
"$NODE" scripts/check-observability.ts || status=1

if [[ ${#renders[@]} -gt 0 ]]; then
  RENDER_FAILURES=$render_failures "$NODE" "$work/validate.mjs" "${renders[@]}" || status=1
else
  echo "check-k8s: 0 passed, $render_failures failed"
fi
exit $status
