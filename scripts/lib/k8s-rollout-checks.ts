// Rules of scripts/check-k8s.sh about what a release does to a running cluster: the migrate Job
// can be applied again, every replica's PostgreSQL pools fit the server mid-rollout, and Node's
// heap fits its container. Pure functions; each returns findings, none means valid.
import { type Finding, idOf, type Manifest, type Render } from "./k8s-checks.ts";
import { containerEnv, list, literal, mebibytes, objectsOf, podTemplates } from "./k8s-manifest.ts";

const HOOK = "argocd.argoproj.io/hook";
const DELETE_POLICY = "argocd.argoproj.io/hook-delete-policy";
const WAVE = "argocd.argoproj.io/sync-wave";
const waveOf = (o: Manifest): number => Number(o?.metadata?.annotations?.[WAVE] ?? 0) || 0;

/** The rendered objects a pod template needs before it can start: its ServiceAccount, ConfigMaps and Secrets. */
function needs(render: Render, t: Manifest): Manifest[] {
  const pod = t.spec ?? {};
  const wanted: [string, string | undefined][] = [["ServiceAccount", pod.serviceAccountName]];
  for (const c of [...list(pod.initContainers), ...list(pod.containers)]) {
    for (const e of list(c.envFrom)) wanted.push(["ConfigMap", e.configMapRef?.name], ["Secret", e.secretRef?.name]);
    for (const e of list(c.env))
      wanted.push(["ConfigMap", e.valueFrom?.configMapKeyRef?.name], ["Secret", e.valueFrom?.secretKeyRef?.name]);
  }
  for (const v of list(pod.volumes)) wanted.push(["ConfigMap", v.configMap?.name], ["Secret", v.secret?.secretName]);
  const all = objectsOf(render);
  return wanted.flatMap(([kind, name]) => all.filter((o) => o.kind === kind && name && o.metadata?.name === name));
}

/**
 * A Job's pod template is immutable, so a Job of a fixed name whose template changes (image,
 * hashed ConfigMap names) cannot be applied over the previous one. Every Job is therefore an
 * Argo CD hook that Argo CD deletes before creating it again (BeforeHookCreation); plain kubectl
 * deletes it first (checkQuickStartDeletesJob). A PreSync hook runs before the sync applies
 * anything, so it may not need an object the same render holds; a Sync hook runs in its wave,
 * after the objects it needs and before every Deployment.
 */
export function checkMigrationJobs(render: Render): Finding[] {
  const findings: Finding[] = [];
  const deployments = objectsOf(render).filter((o) => o.kind === "Deployment");
  for (const job of objectsOf(render).filter((o) => o.kind === "Job")) {
    const where = `${render.name} ${idOf(job)}`;
    const annotations = job.metadata?.annotations ?? {};
    const hooks = String(annotations[HOOK] ?? "")
      .split(",")
      .map((h) => h.trim())
      .filter(Boolean);
    if (!hooks.length) {
      findings.push({
        where,
        message: `a Job of a fixed name cannot be applied over the last release's (its pod template is immutable): annotate ${HOOK}: Sync and ${DELETE_POLICY}: BeforeHookCreation`,
      });
      continue;
    }
    if (!String(annotations[DELETE_POLICY] ?? "").includes("BeforeHookCreation")) {
      findings.push({
        where,
        message: `${DELETE_POLICY} must include BeforeHookCreation (the last run is deleted first)`,
      });
    }
    const needed = needs(render, job.spec?.template ?? {});
    if (hooks.includes("PreSync")) {
      for (const o of needed) {
        findings.push({
          where,
          message: `a PreSync hook runs before this sync applies ${idOf(o)}, which it needs: make it a Sync hook in a wave between them`,
        });
      }
    }
    if (hooks.includes("Sync")) {
      for (const o of needed.filter((o) => waveOf(o) >= waveOf(job))) {
        findings.push({
          where,
          message: `${idOf(o)} (wave ${waveOf(o)}) must be in an earlier sync wave than the Job (${waveOf(job)})`,
        });
      }
      for (const d of deployments.filter((d) => waveOf(d) <= waveOf(job))) {
        findings.push({
          where,
          message: `${idOf(d)} (wave ${waveOf(d)}) must be in a later sync wave than the Job (${waveOf(job)})`,
        });
      }
    }
  }
  return findings;
}

/**
 * deploy/k8s/README.md's quick start applies a production render with kubectl: it must delete the
 * previous migrate Job (and wait until it is gone) before its first apply, or that apply fails on
 * the Job's immutable template.
 */
export function checkQuickStartDeletesJob(readme: string): Finding[] {
  const where = "deploy/k8s/README.md quick start";
  const apply = readme.search(/kubectl apply -f pulsegate\.yaml -l '/);
  if (apply < 0) return [{ where, message: "has no ordered apply (kubectl apply -f pulsegate.yaml -l '…')" }];
  const before = readme.slice(0, apply);
  const lastFence = before.lastIndexOf("```sh");
  const block = lastFence < 0 ? before : before.slice(lastFence);
  return /kubectl -n \S+ delete job migrate --ignore-not-found --wait\b/.test(block)
    ? []
    : [
        {
          where,
          message:
            "must run `kubectl -n NAMESPACE delete job migrate --ignore-not-found --wait` before its first apply, in the same block",
        },
      ];
}

// ---- PostgreSQL connections -----------------------------------------------------------------
/**
 * Connections one pod of each workload opens: `pools` pools of DB_POOL_MAX each, and `extra`
 * connections of their own (auth's LISTEN for team changes). Every pod also holds one more while
 * it migrates at start (the advisory lock's own session). A test holds this table to the code.
 */
export const CONNECTIONS_PER_POD: Record<string, { pools: number; extra: number }> = {
  auth: { pools: 1, extra: 1 },
  alerts: { pools: 1, extra: 0 },
  monitors: { pools: 1, extra: 0 },
  migrate: { pools: 1, extra: 0 },
};
/** The migration lock's session, held while a pod migrates at start. */
const AT_START = 1;
/** PostgreSQL's default max_connections, when the render does not run PostgreSQL itself. */
export const DEFAULT_MAX_CONNECTIONS = 100;
/** Kept from the budget: superuser_reserved_connections (3), replication, backups, exporters, people. */
export const RESERVED_CONNECTIONS = 20;

/** The most pods a workload has at once: its replicas (an HPA's maximum), plus the rollout's surge. */
export function podsAtMost(render: Render, w: Manifest): { replicas: number; surge: number } {
  if (w.kind === "Job") return { replicas: Number(w.spec?.parallelism ?? 1), surge: 0 };
  const hpa = objectsOf(render).find(
    (h) =>
      h.kind === "HorizontalPodAutoscaler" &&
      h.spec?.scaleTargetRef?.kind === w.kind &&
      h.spec?.scaleTargetRef?.name === w.metadata?.name,
  );
  const replicas = Number(hpa?.spec?.maxReplicas ?? w.spec?.replicas ?? 1);
  if (w.kind !== "Deployment" || w.spec?.strategy?.type === "Recreate") return { replicas, surge: 0 };
  const maxSurge = w.spec?.strategy?.rollingUpdate?.maxSurge ?? "25%";
  const surge =
    typeof maxSurge === "string" && maxSurge.endsWith("%")
      ? Math.ceil((replicas * Number(maxSurge.slice(0, -1))) / 100)
      : Number(maxSurge);
  return { replicas, surge };
}

/** max_connections of a PostgreSQL the render runs (CloudNativePG Cluster, components/postgres), if any. */
export function renderedMaxConnections(render: Render): number | undefined {
  for (const o of objectsOf(render)) {
    if (o.kind === "Cluster" && String(o.apiVersion).startsWith("postgresql.cnpg.io/")) {
      const value = o.spec?.postgresql?.parameters?.max_connections;
      return value === undefined ? DEFAULT_MAX_CONNECTIONS : Number(value);
    }
  }
  for (const { t } of podTemplates(render)) {
    for (const c of list(t.spec?.containers).filter((c) => /(^|\/)postgres:/.test(c.image ?? ""))) {
      const args = [...list(c.command), ...list(c.args)].map(String);
      const setting = args.map((a, i) => (a === "-c" ? args[i + 1] : a)).find((a) => /^max_connections=/.test(a ?? ""));
      return setting ? Number(setting.split("=")[1]) : DEFAULT_MAX_CONNECTIONS;
    }
  }
  return undefined;
}

/**
 * Every connection Pulsegate can hold at once, at the most replicas each workload may have and
 * with every Deployment mid-rollout (maxSurge extra pods, each migrating at start), against
 * max_connections less RESERVED_CONNECTIONS. max_connections is the rendered PostgreSQL's, else
 * `maxConnections` (an external server's; PostgreSQL's default 100).
 */
export function checkConnectionBudget(
  render: Render,
  maxConnections = DEFAULT_MAX_CONNECTIONS,
): { findings: Finding[]; total: number; budget: number; terms: string[] } {
  const findings: Finding[] = [];
  const terms: string[] = [];
  let total = 0;
  for (const { w, t } of podTemplates(render)) {
    for (const c of list(t.spec?.containers)) {
      const env = containerEnv(render, c);
      if (!env.has("DATABASE_URL")) continue;
      const where = `${render.name} ${idOf(w)} container ${c.name}`;
      const app = t.metadata?.labels?.app ?? w.metadata?.name;
      const shape = CONNECTIONS_PER_POD[app];
      if (!shape) {
        findings.push({
          where,
          message: `reads DATABASE_URL, but its connections per pod are unknown (CONNECTIONS_PER_POD)`,
        });
        continue;
      }
      const poolMax = Number(literal(env, "DB_POOL_MAX"));
      if (!Number.isInteger(poolMax) || poolMax < 1) {
        findings.push({
          where,
          message: "DB_POOL_MAX must be set (a whole number) in its ConfigMap: the connection budget counts it",
        });
        continue;
      }
      const { replicas, surge } = podsAtMost(render, w);
      const perPod = shape.pools * poolMax + shape.extra + AT_START;
      total += (replicas + surge) * perPod;
      terms.push(`${app} (${replicas}+${surge}) × ${perPod}`);
    }
  }
  const budget = (renderedMaxConnections(render) ?? maxConnections) - RESERVED_CONNECTIONS;
  if (total > budget) {
    findings.push({
      where: render.name,
      message: `PostgreSQL connections at most replicas, mid-rollout: ${terms.join(" + ")} = ${total}, over the budget of ${budget} (max_connections − ${RESERVED_CONNECTIONS} reserved); lower DB_POOL_MAX or replicas, or put a session-mode pooler in front (deploy/k8s/README.md)`,
    });
  }
  return { findings, total, budget, terms };
}

// ---- heap ---------------------------------------------------------------------------------------
/** Of a container's memory limit, V8's old space may take this share... */
export const HEAP_SHARE = 0.75;
/** ...and leave at least this much (MiB): the young generation (up to 3 × 16 MiB semi-spaces), code, buffers, gRPC and TLS, socket buffers. */
export const HEAP_HEADROOM_MIB = 128;

/**
 * Every Node container states its heap (`--max-old-space-size`, in NODE_OPTIONS or its command)
 * within its memory limit: at most HEAP_SHARE of it, leaving HEAP_HEADROOM_MIB. Without it V8
 * sizes the heap from the limit on its own terms and a busy pod is OOM-killed before it collects.
 */
export function checkHeap(render: Render): Finding[] {
  const findings: Finding[] = [];
  for (const { w, t } of podTemplates(render)) {
    for (const c of [...list(t.spec?.initContainers), ...list(t.spec?.containers)]) {
      const command = [...list(c.command), ...list(c.args)].map(String);
      if (command[0] !== "node") continue;
      const where = `${render.name} ${idOf(w)} container ${c.name}`;
      const flags = [literal(containerEnv(render, c), "NODE_OPTIONS") ?? "", ...command].join(" ");
      const heap = /--max-old-space-size=(\d+)/.exec(flags)?.[1];
      const limit = mebibytes(c.resources?.limits?.memory);
      if (heap === undefined) {
        findings.push({ where, message: "NODE_OPTIONS must set --max-old-space-size from limits.memory" });
        continue;
      }
      if (limit === undefined) continue; // checkPolicy reports the missing limit
      const most = Math.min(Math.floor(limit * HEAP_SHARE), Math.floor(limit - HEAP_HEADROOM_MIB));
      if (Number(heap) > most) {
        findings.push({
          where,
          message: `--max-old-space-size=${heap} does not fit limits.memory ${c.resources.limits.memory}: at most ${most} (${HEAP_SHARE * 100} %, leaving ${HEAP_HEADROOM_MIB} MiB)`,
        });
      }
    }
  }
  return findings;
}

// ---- Shutdown within the grace period --------------------------------------------------------
/** What the kubelet's SIGKILL must leave after the process's own budget: signal delivery, exit. */
const SHUTDOWN_MARGIN_S = 2;

/**
 * A service's whole shutdown (SHUTDOWN_TIMEOUT_MS, every step sharing it) plus its preStop sleep
 * must end before terminationGracePeriodSeconds, with a margin: otherwise a slow collector or
 * database close is killed mid-flush. Only containers that read SHUTDOWN_TIMEOUT_MS (the services).
 */
export function checkShutdownBudget(render: Render): Finding[] {
  const findings: Finding[] = [];
  for (const { w, t } of podTemplates(render)) {
    if (w.kind !== "Deployment") continue;
    const grace = Number(t.spec?.terminationGracePeriodSeconds ?? 30);
    for (const c of list(t.spec?.containers)) {
      const command = [...list(c.command), ...list(c.args)].map(String);
      if (command[0] !== "node") continue;
      const where = `${render.name} ${idOf(w)} container ${c.name}`;
      const budget = literal(containerEnv(render, c), "SHUTDOWN_TIMEOUT_MS");
      if (budget === undefined) {
        findings.push({
          where,
          message: "SHUTDOWN_TIMEOUT_MS must be set in its ConfigMap, to fit terminationGracePeriodSeconds",
        });
        continue;
      }
      const preStop = Number(c.lifecycle?.preStop?.sleep?.seconds ?? 0);
      const needed = Number(budget) / 1000 + preStop + SHUTDOWN_MARGIN_S;
      if (!(needed <= grace)) {
        findings.push({
          where,
          message: `preStop ${preStop} s + SHUTDOWN_TIMEOUT_MS ${budget} + ${SHUTDOWN_MARGIN_S} s of margin do not fit terminationGracePeriodSeconds ${grace}`,
        });
      }
    }
  }
  return findings;
}
