// The rules of scripts/check-k8s.sh over rendered manifests, as pure functions: API versions
// Kubernetes no longer serves, the TypeScript program that checks every field (strict), the
// reading of tsc's diagnostics, and Pulsegate's policy. scripts/check-k8s.ts does the I/O
// (YAML, kubernetes-models' schemas, running tsc); each check here returns findings, none
// means valid.

export type Finding = { where: string; message: string };

/**
 * A rendered object as parsed from YAML. Until the schema check has run it may have any shape,
 * so the rules read it defensively (every access optional) rather than through
 * kubernetes-models' interfaces, which would claim fields are present.
 */
// biome-ignore lint/suspicious/noExplicitAny: see above; the shape is checked, not assumed.
export type Manifest = any;
export type Render = { name: string; objects: Manifest[] };

export const idOf = (o: Manifest): string => `${o?.kind ?? "?"}/${o?.metadata?.name ?? "?"}`;

// ---- 1. schema ------------------------------------------------------------
// kubernetes-models also keeps schemas of API versions that Kubernetes has
// since stopped serving; these are rejected (deprecated API migration guide).
const REMOVED: Record<string, [number, string]> = {
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

/** The Kubernetes version that stopped serving `apiVersion` `kind`, if it did. */
export const removedIn = (apiVersion: string, kind: string): number | undefined => {
  const [version, kinds] = REMOVED[apiVersion] ?? [];
  return version && kinds && (kinds === "*" || kinds.split(" ").includes(kind)) ? version : undefined;
};

/** The module of kubernetes-models (or, for the Prometheus Operator's kinds, its own package) for a kind. */
export const modelModule = (apiVersion: string, kind: string): string =>
  apiVersion.startsWith("monitoring.coreos.com/")
    ? `@kubernetes-models/prometheus-operator/${apiVersion}/${kind}`
    : apiVersion.startsWith("postgresql.cnpg.io/")
      ? `@kubernetes-models/cloudnative-pg/${apiVersion}/${kind}`
      : `kubernetes-models/${apiVersion}/${kind}`;

/**
 * The checks before an object meets its schema: an object, with apiVersion, kind and a name,
 * of an API still served. `schema` is false when the object cannot go on to its schema.
 */
export function checkIdentity(renderName: string, o: Manifest): { findings: Finding[]; schema: boolean } {
  const findings: Finding[] = [];
  const where = `${renderName} ${idOf(o)}`;
  if (typeof o !== "object" || o === null || Array.isArray(o)) {
    return { findings: [{ where: renderName, message: "a document is not an object" }], schema: false };
  }
  if (typeof o.apiVersion !== "string" || typeof o.kind !== "string") {
    return { findings: [{ where, message: "apiVersion and kind are required" }], schema: false };
  }
  if (typeof o.metadata?.name !== "string" || o.metadata.name === "") {
    findings.push({ where, message: "metadata.name is required" });
  }
  const gone = removedIn(o.apiVersion, o.kind);
  if (gone) {
    findings.push({ where, message: `${o.apiVersion} ${o.kind} is no longer served (removed in Kubernetes ${gone})` });
    return { findings, schema: false };
  }
  return { findings, schema: true };
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

/** Where a line of the strict program comes from: an object (render and id) and a field path. */
export type Origin = { where: string; path: string };
export type StrictProgram = { source: string; origin: (Origin | null)[] };

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
const hasObjects = (v: unknown): boolean => Array.isArray(v) && v.some((x) => x !== null && typeof x === "object");
const show = (path: (string | number)[]): string =>
  path.reduce<string>((s, k) => (typeof k === "number" ? `${s}[${k}]` : s ? `${s}.${k}` : k), "");

/** The TypeScript program (objects.ts) that type-checks the objects that have a schema. */
export function strictProgram(renders: Render[], modelled: (o: Manifest) => boolean): StrictProgram {
  const lines = [
    "// generated by scripts/check-k8s.sh",
    "type Step<T, K> = K extends number",
    "  ? NonNullable<T> extends readonly (infer E)[] ? E : never",
    "  : K extends keyof NonNullable<T> ? NonNullable<T>[K] : never;",
    "type At<T, P extends readonly unknown[]> = P extends readonly [infer H, ...infer R] ? At<Step<T, H>, R> : NonNullable<T>;",
  ];
  const origin: (Origin | null)[] = lines.map(() => null);
  const push = (line: string, at: Origin) => {
    lines.push(line);
    origin.push(at);
  };
  const imports = new Map<string, string>();
  let n = 0;
  const walk = (value: unknown, path: (string | number)[], alias: string, where: string): void => {
    if (Array.isArray(value)) {
      value.forEach((v, i) => {
        if (v !== null && typeof v === "object") walk(v, [...path, i], alias, where);
      });
      return;
    }
    const entries = Object.entries(value as Record<string, unknown>);
    // The object's shape: required fields present, no unknown field.
    push(`export const v${n++}: At<${alias}, ${JSON.stringify(path)}> = {`, { where, path: show(path) });
    for (const [k, v] of entries) {
      if (v !== null) push(`  ${JSON.stringify(k)}: null as any,`, { where, path: show([...path, k]) });
    }
    push("};", { where, path: show(path) });
    // Each field on its own, so that no finding masks another. A field the
    // API does not define has type `never` here.
    for (const [k, v] of entries) {
      if (v === null) continue; // the API treats null as absent
      if (isObject(v) || hasObjects(v)) walk(v, [...path, k], alias, where);
      else
        push(`export const v${n++}: At<${alias}, ${JSON.stringify([...path, k])}> = ${JSON.stringify(v)};`, {
          where,
          path: show([...path, k]),
        });
    }
  };
  for (const render of renders) {
    for (const o of render.objects) {
      if (!modelled(o)) continue;
      const spec = modelModule(o.apiVersion, o.kind);
      if (!imports.has(spec)) imports.set(spec, `T${imports.size}`);
      walk(o, [], imports.get(spec) as string, `${render.name} ${idOf(o)}`);
    }
  }
  const header = [...imports].map(([spec, alias]) => {
    const kind = spec.slice(spec.lastIndexOf("/") + 1);
    return `import type { I${kind} as ${alias} } from ${JSON.stringify(spec)};`;
  });
  lines.splice(1, 0, ...header);
  origin.splice(1, 0, ...header.map(() => null));
  return { source: `${lines.join("\n")}\n`, origin };
}

/**
 * tsc's output on the strict program as findings on fields. Only the first line of each
 * diagnostic counts (continuation lines elaborate); a finding under a field that is already
 * reported (say, fields of a misspelt object, whose type is then `never`) is left out.
 */
export function strictFindings(output: string, origin: (Origin | null)[]): Finding[] {
  const diagnostics: { at: Origin | null; message: string }[] = [];
  for (const line of output.split("\n")) {
    const m = /^(?:.*[\\/])?objects\.ts\((\d+),\d+\): error (TS\d+|tsc): (.*)$/.exec(line);
    if (m) diagnostics.push({ at: origin[Number(m[1]) - 1] ?? null, message: m[3] ?? "" });
    else if (/error TS\d+/.test(line)) diagnostics.push({ at: null, message: line.trim() });
  }
  // tsc failed without a diagnostic on objects.ts: it did not run properly.
  if (output.trim() && !diagnostics.length) {
    diagnostics.push({ at: null, message: output.trim().split("\n").slice(0, 5).join(" | ") });
  }
  const findings: Finding[] = [];
  const reported: Origin[] = [];
  for (const { at, message } of diagnostics) {
    if (!at) {
      findings.push({ where: "tsc", message });
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
    findings.push({ where: at.where, message: `strict: ${at.path || "/"}: ${text}` });
  }
  return findings;
}

// ---- 3. policy -------------------------------------------------------------
/** A list from a field that may be absent. */
const list = (value: Manifest): Manifest[] => value ?? [];
const matches = (selector: Manifest, labels: Manifest): boolean =>
  !!selector && Object.entries(selector).every(([k, v]) => labels?.[k] === v);
const isImage = (image: string | undefined): boolean =>
  /^(?:.+\/)?pulsegate(?::[\w.-]+)?(?:@sha256:[0-9a-f]{64})?$/.test(image ?? "");
// The other images: Redis (components/redis) and PostgreSQL (components/postgres), pinned to a
// full version.
const isRedis = (image: string | undefined): boolean =>
  /^(?:.+\/)?redis:\d+\.\d+\.\d+(?:-alpine)?(?:@sha256:[0-9a-f]{64})?$/.test(image ?? "");
const isPostgres = (image: string | undefined): boolean =>
  /^(?:.+\/)?postgres:\d+\.\d+(?:-alpine)?(?:@sha256:[0-9a-f]{64})?$/.test(image ?? "");
// Ports only some workloads may reach: a NetworkPolicy rule admitting one
// must name only those workloads' pods (`app` labels).
const RESTRICTED_PORTS = [
  { app: "auth", port: "grpc-signing", from: ["alerts"] }, // Sign: an HMAC oracle
  { app: "redis", port: "redis", from: ["gateway", "monitors"] },
  { app: "postgres", port: "postgres", from: ["auth", "alerts", "monitors", "migrate"] },
];

/**
 * Pulsegate's policy over one render. `external` names Secrets that may be referenced without
 * being rendered; `externalUsed` says which of them the render references.
 */
export function checkPolicy(
  render: Render,
  external: ReadonlySet<string>,
): { findings: Finding[]; externalUsed: Set<string> } {
  const findings: Finding[] = [];
  const error = (where: string, message: string) => {
    findings.push({ where, message });
  };
  const all = render.objects.filter((o) => o && typeof o === "object");
  const byKind = (kind: string): Manifest[] => all.filter((o) => o.kind === kind);
  const names = (kind: string) => new Set(byKind(kind).map((o) => o.metadata?.name));
  const workloads = all.filter((o) => ["Deployment", "Job", "StatefulSet", "DaemonSet"].includes(o.kind));
  const pods = workloads.map((w) => ({ w, t: w.spec?.template ?? {} }));
  const configMaps = names("ConfigMap");
  const secrets = names("Secret");
  const externalUsed = new Set<string>();

  for (const { w, t } of pods) {
    const where = `${render.name} ${idOf(w)}`;
    const pod = t.spec ?? {};
    const psc = pod.securityContext ?? {};
    const tmpVolumes = new Set(
      list(pod.volumes)
        .filter((v) => v.emptyDir)
        .map((v) => v.name),
    );
    if (w.kind !== "Job" && !matches(w.spec?.selector?.matchLabels, t.metadata?.labels)) {
      error(where, "spec.selector.matchLabels does not match the pod template labels");
    }
    if (pod.automountServiceAccountToken !== false) error(where, "automountServiceAccountToken must be false");
    for (const c of [...list(pod.initContainers), ...list(pod.containers)]) {
      const at = `${where} container ${c.name}`;
      const sc = c.securityContext ?? {};
      if (!isImage(c.image) && !isRedis(c.image) && !isPostgres(c.image)) {
        error(at, `image ${c.image} is neither pulsegate nor a pinned redis or postgres`);
      }
      if (isRedis(c.image)) {
        const args = [...list(c.command), ...list(c.args)].join(" ");
        if (!/--appendonly yes\b/.test(args) || !/--appendfsync always\b/.test(args)) {
          error(at, "redis must run with --appendonly yes --appendfsync always (the ping spool is acknowledged)");
        }
      }
      if ((sc.runAsNonRoot ?? psc.runAsNonRoot) !== true) error(at, "runAsNonRoot must be true");
      if (sc.readOnlyRootFilesystem !== true) error(at, "readOnlyRootFilesystem must be true");
      if (sc.allowPrivilegeEscalation !== false) error(at, "allowPrivilegeEscalation must be false");
      if (!list(sc.capabilities?.drop).includes("ALL")) error(at, "capabilities.drop must include ALL");
      if (list(sc.capabilities?.add).length) error(at, "capabilities.add must be empty");
      if ((sc.seccompProfile ?? psc.seccompProfile)?.type !== "RuntimeDefault")
        error(at, "seccompProfile must be RuntimeDefault");
      if (sc.privileged) error(at, "privileged is not allowed");
      for (const kind of ["requests", "limits"]) {
        for (const resource of ["cpu", "memory"]) {
          if (c.resources?.[kind]?.[resource] === undefined) error(at, `resources.${kind}.${resource} is missing`);
        }
      }
      if (!list(c.volumeMounts).some((m) => m.mountPath === "/tmp" && tmpVolumes.has(m.name))) {
        error(at, "/tmp must be an emptyDir volume (the root filesystem is read-only)");
      }
      for (const p of list(c.ports)) if (!p.name) error(at, `port ${p.containerPort} has no name`);
      if ((w.kind === "Deployment" || w.kind === "StatefulSet") && !pod.initContainers?.includes(c)) {
        if (!c.readinessProbe) error(at, "readinessProbe is missing");
        if (!c.livenessProbe) error(at, "livenessProbe is missing");
      }
      const refs = [
        ...list(c.envFrom).map((e) => ["ConfigMap", e.configMapRef?.name, e.configMapRef?.optional]),
        ...list(c.envFrom).map((e) => ["Secret", e.secretRef?.name, e.secretRef?.optional]),
        ...list(c.env).map((e) => [
          "ConfigMap",
          e.valueFrom?.configMapKeyRef?.name,
          e.valueFrom?.configMapKeyRef?.optional,
        ]),
        ...list(c.env).map((e) => ["Secret", e.valueFrom?.secretKeyRef?.name, e.valueFrom?.secretKeyRef?.optional]),
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
    for (const v of list(pod.volumes)) {
      if (v.configMap && !v.configMap.optional && !configMaps.has(v.configMap.name))
        error(where, `volume ConfigMap ${v.configMap.name} is not rendered`);
    }
  }

  for (const s of byKind("Service")) {
    const where = `${render.name} ${idOf(s)}`;
    const selected = pods.filter(({ t }) => matches(s.spec?.selector, t.metadata?.labels));
    if (!selected.length) {
      error(where, `selector ${JSON.stringify(s.spec?.selector)} matches no pod template`);
      continue;
    }
    for (const p of list(s.spec?.ports)) {
      if (typeof p.targetPort !== "string") continue;
      const named = selected.every(({ t }) =>
        list(t.spec?.containers).some((c) => list(c.ports).some((cp) => cp.name === p.targetPort)),
      );
      if (!named) error(where, `targetPort ${p.targetPort} is not a named container port of the selected pods`);
    }
    // A virtual IP pins each gRPC client connection to one pod; headless lets clients balance per call.
    const grpcPort = list(s.spec?.ports).some((p) => p.name === "grpc" || p.appProtocol === "grpc");
    if (grpcPort && s.spec?.clusterIP !== "None") {
      error(where, "a Service with a gRPC port must be headless (clusterIP: None) so clients balance over its pods");
    }
  }

  for (const i of byKind("Ingress")) {
    const backends = list(i.spec?.rules).flatMap((r) => list(r.http?.paths).map((p) => p.backend?.service));
    if (i.spec?.defaultBackend?.service) backends.push(i.spec.defaultBackend.service);
    for (const b of backends.filter(Boolean)) {
      const svc = byKind("Service").find((s) => s.metadata?.name === b.name);
      if (!svc) error(`${render.name} ${idOf(i)}`, `backend Service ${b.name} is not rendered`);
      else if (
        !list(svc.spec?.ports).some((p) => (b.port?.name ? p.name === b.port.name : p.port === b.port?.number))
      ) {
        error(`${render.name} ${idOf(i)}`, `backend port ${JSON.stringify(b.port)} is not a port of Service ${b.name}`);
      }
    }
  }

  // The admin API (one global token) and the dashboard in front of it stay off the overlays'
  // Ingresses: components/admin-ingress is opt-in. "/" would route /admin too.
  for (const i of /(^|\/)overlays\//.test(render.name) ? byKind("Ingress") : []) {
    for (const p of list(i.spec?.rules).flatMap((r) => r.http?.paths ?? [])) {
      if (p.path === "/" || p.path?.startsWith("/admin") || p.path?.startsWith("/dashboard")) {
        error(
          `${render.name} ${idOf(i)}`,
          `routes ${p.path}, which exposes the admin API (use components/admin-ingress)`,
        );
      }
    }
  }

  // A TLS public Ingress (the one routing /api) means admin answers should carry https URLs on its host.
  const gatewayConfig = byKind("ConfigMap").find((c) => /^gateway-config(-[a-z0-9]+)?$/.test(c.metadata?.name ?? ""));
  const publicApi = (i: Manifest) =>
    list(i.spec?.rules).some((r) => list(r.http?.paths).some((p) => p.path === "/api" || p.path?.startsWith("/api/")));
  for (const i of gatewayConfig ? byKind("Ingress").filter((i) => i.spec?.tls?.length && publicApi(i)) : []) {
    const expected = `https://${i.spec.rules?.[0]?.host}`;
    if (gatewayConfig.data?.PUBLIC_BASE_URL !== expected) {
      error(
        `${render.name} ${idOf(gatewayConfig)}`,
        `PUBLIC_BASE_URL should be ${expected} (the TLS host of ${idOf(i)})`,
      );
    }
  }

  const policies = byKind("NetworkPolicy");
  for (const r of policies.length ? RESTRICTED_PORTS : []) {
    const pod = pods.find(({ t }) => t.metadata?.labels?.app === r.app)?.t;
    if (!pod) continue;
    const number = list(pod.spec?.containers)
      .flatMap((c) => c.ports ?? [])
      .find((p) => p.name === r.port)?.containerPort;
    if (number === undefined) {
      error(`${render.name} ${r.app}`, `no container port named ${r.port}`);
      continue;
    }
    for (const np of policies.filter((np) => matches(np.spec?.podSelector?.matchLabels ?? {}, pod.metadata?.labels))) {
      for (const rule of list(np.spec?.ingress)) {
        const admits =
          !rule.ports?.length ||
          rule.ports.some(
            (p: Manifest) =>
              p.port === r.port || p.port === number || (p.endPort && p.port <= number && number <= p.endPort),
          );
        const onlyCallers =
          rule.from?.length &&
          rule.from.every(
            (peer: Manifest) =>
              !peer.namespaceSelector &&
              !peer.ipBlock &&
              !peer.podSelector?.matchExpressions &&
              Object.keys(peer.podSelector?.matchLabels ?? {}).length === 1 &&
              r.from.includes(peer.podSelector.matchLabels.app),
          );
        if (admits && !onlyCallers) {
          error(
            `${render.name} ${idOf(np)}`,
            `admits ${r.app}:${r.port} (${number}) from more than ${r.from.join(", ")}`,
          );
        }
      }
    }
  }

  // Metrics: every Pulsegate service's pods and Service expose the port `metrics`,
  // and a ServiceMonitor selects Services and scrapes ports they have.
  for (const { w, t } of pods.filter(
    ({ w }) => w.kind === "Deployment" && ["gateway", "auth", "alerts", "monitors"].includes(w.metadata?.name),
  )) {
    if (!list(t.spec?.containers).some((c) => list(c.ports).some((p) => p.name === "metrics"))) {
      error(`${render.name} ${idOf(w)}`, "has no container port named metrics (METRICS_PORT)");
    }
    const svc = byKind("Service").find((s) => s.metadata?.name === w.metadata?.name);
    if (svc && !list(svc.spec?.ports).some((p) => p.name === "metrics"))
      error(`${render.name} ${idOf(svc)}`, "has no port named metrics");
  }
  const selects = (selector: Manifest, labels: Manifest): boolean =>
    matches(selector?.matchLabels ?? {}, labels) &&
    list(selector?.matchExpressions).every((e) =>
      e.operator === "In"
        ? e.values?.includes(labels?.[e.key])
        : e.operator === "NotIn"
          ? !e.values?.includes(labels?.[e.key])
          : e.operator === "Exists"
            ? labels?.[e.key] !== undefined
            : labels?.[e.key] === undefined,
    );
  for (const m of byKind("ServiceMonitor")) {
    const selected = byKind("Service").filter((s) => selects(m.spec?.selector, s.metadata?.labels));
    if (!selected.length)
      error(`${render.name} ${idOf(m)}`, `selector ${JSON.stringify(m.spec?.selector)} matches no Service`);
    for (const e of list(m.spec?.endpoints)) {
      for (const s of selected.filter((s) => !list(s.spec?.ports).some((p) => p.name === e.port))) {
        error(`${render.name} ${idOf(m)}`, `endpoint port ${e.port} is not a port of Service ${s.metadata?.name}`);
      }
    }
  }

  for (const h of byKind("HorizontalPodAutoscaler")) {
    const ref = h.spec?.scaleTargetRef ?? {};
    const target = all.find((o) => o.kind === ref.kind && o.metadata?.name === ref.name);
    if (!target) error(`${render.name} ${idOf(h)}`, `scaleTargetRef ${ref.kind}/${ref.name} is not rendered`);
    else if (target.spec?.replicas !== undefined) {
      error(
        `${render.name} ${idOf(target)}`,
        "sets spec.replicas although an HPA scales it (each apply would reset the count)",
      );
    }
  }

  // Pods an operator makes from a rendered resource: CloudNativePG labels a Cluster's instances.
  const operatorPods = byKind("Cluster")
    .filter((c) => String(c.apiVersion).startsWith("postgresql.cnpg.io/"))
    .map((c) => ({ "cnpg.io/cluster": c.metadata?.name }));
  for (const p of [...byKind("PodDisruptionBudget"), ...byKind("NetworkPolicy")]) {
    const selector = p.kind === "PodDisruptionBudget" ? p.spec?.selector : p.spec?.podSelector;
    if (!selector?.matchLabels || !Object.keys(selector.matchLabels).length) continue; // selects every pod
    const selectsOperatorPods = operatorPods.some((labels) => matches(selector.matchLabels, labels));
    if (!selectsOperatorPods && !pods.some(({ t }) => matches(selector.matchLabels, t.metadata?.labels))) {
      error(`${render.name} ${idOf(p)}`, `selector ${JSON.stringify(selector.matchLabels)} matches no pod template`);
    }
  }

  return { findings, externalUsed };
}

// ---- 4. the quick start's ordered apply -----------------------------------------------------
/**
 * Whether `labels` match a kubectl label selector (`-l`): comma-separated requirements, each
 * `key`, `!key`, `key=value`, `key==value`, `key!=value`, `key in (a,b)` or `key notin (a,b)`,
 * as kubectl reads them (a missing label matches `!=` and `notin`).
 */
export function matchesSelector(selector: string, labels: Record<string, string> | undefined): boolean {
  const have = labels ?? {};
  const requirements = selector.match(/[^,(]+(?:\([^)]*\))?/g) ?? [];
  return requirements.every((raw) => {
    const requirement = raw.trim();
    const set = /^([\w./-]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(requirement);
    if (set) {
      const values = (set[3] as string).split(",").map((value) => value.trim());
      const inSet = have[set[1] as string] !== undefined && values.includes(have[set[1] as string] as string);
      return set[2] === "in" ? inSet : !inSet;
    }
    const equality = /^([\w./-]+)\s*(==|=|!=)\s*([\w.-]*)$/.exec(requirement);
    if (equality) {
      const equal = have[equality[1] as string] === equality[3];
      return equality[2] === "!=" ? !equal : equal;
    }
    if (requirement.startsWith("!")) return have[requirement.slice(1)] === undefined;
    if (/^[\w./-]+$/.test(requirement)) return have[requirement] !== undefined;
    throw new Error(`a label selector this check cannot read: ${requirement}`);
  });
}

/**
 * deploy/k8s/README.md's quick start applies a production render in two steps: first what
 * `selector` takes (and waits for the migrate Job), then the rest. The first step must take the
 * Job with everything its pod needs that the render holds (its ServiceAccount and ConfigMaps) and
 * leave every Deployment for the second.
 */
export function checkOrderedApply(render: Render, selector: string): Finding[] {
  const findings: Finding[] = [];
  const all = render.objects.filter((o) => o && typeof o === "object");
  const first = all.filter((o) => matchesSelector(selector, o.metadata?.labels));
  const where = `${render.name} quick start (-l '${selector}')`;
  const job = all.find((o) => o.kind === "Job" && o.metadata?.name === "migrate");
  if (!job) return [{ where, message: "the render has no Job migrate" }];
  if (!first.includes(job)) findings.push({ where, message: "the first step does not apply the Job migrate" });
  const pod = job.spec?.template?.spec ?? {};
  const needs = [
    ["ServiceAccount", pod.serviceAccountName],
    ...list(pod.containers).flatMap((c: Manifest) => [
      ...list(c.envFrom).map((e: Manifest) => ["ConfigMap", e.configMapRef?.name]),
      ...list(c.env).map((e: Manifest) => ["ConfigMap", e.valueFrom?.configMapKeyRef?.name]),
    ]),
  ].filter(([, name]) => name);
  for (const [kind, name] of needs) {
    const object = all.find((o) => o.kind === kind && o.metadata?.name === name);
    if (object && !first.includes(object)) {
      findings.push({ where, message: `the first step does not apply ${kind}/${name}, which the Job needs` });
    }
  }
  for (const deployment of first.filter((o) => o.kind === "Deployment")) {
    findings.push({ where, message: `the first step applies ${idOf(deployment)} before the Job has run` });
  }
  return findings;
}
