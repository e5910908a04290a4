import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { Manifest, Render } from "./k8s-checks.ts";
import {
  CONNECTIONS_PER_POD,
  checkConnectionBudget,
  checkHeap,
  checkMigrationJobs,
  checkQuickStartDeletesJob,
  checkShutdownBudget,
  podsAtMost,
} from "./k8s-rollout-checks.ts";

const root = resolve(import.meta.dirname, "../..");
const render = (...objects: Manifest[]): Render => ({ name: "overlays/production", objects });
const messages = (findings: { message: string }[]) => findings.map((f) => f.message);

const config = (name: string, data: Record<string, string>, wave = "-2") => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name, annotations: { "argocd.argoproj.io/sync-wave": wave } },
  data,
});
/** A workload of app `app` reading DATABASE_URL and the ConfigMap `<app>-config`. */
function workload(app: string, kind = "Deployment", spec: Manifest = {}, container: Manifest = {}): Manifest {
  return {
    apiVersion: kind === "Job" ? "batch/v1" : "apps/v1",
    kind,
    metadata: { name: app, annotations: {} },
    spec: {
      ...spec,
      template: {
        metadata: { labels: { app } },
        spec: {
          serviceAccountName: app,
          containers: [
            {
              name: app,
              image: "pulsegate",
              command: ["node", "main.ts"],
              envFrom: [{ configMapRef: { name: `${app}-config` } }],
              env: [
                {
                  name: "DATABASE_URL",
                  valueFrom: { secretKeyRef: { name: "pulsegate-secrets", key: "DATABASE_URL" } },
                },
              ],
              resources: { limits: { memory: "512Mi" } },
              ...container,
            },
          ],
        },
      },
    },
  };
}
const migrateJob = (annotations: Record<string, string>) => {
  const job = workload("migrate", "Job");
  job.metadata.annotations = annotations;
  return job;
};
const hook = {
  "argocd.argoproj.io/hook": "Sync",
  "argocd.argoproj.io/hook-delete-policy": "BeforeHookCreation",
  "argocd.argoproj.io/sync-wave": "-1",
};

describe("checkMigrationJobs", () => {
  const serviceAccount = {
    apiVersion: "v1",
    kind: "ServiceAccount",
    metadata: { name: "migrate", annotations: { "argocd.argoproj.io/sync-wave": "-2" } },
  };
  const needs = [config("migrate-config", {}), serviceAccount];

  it("accepts a Sync hook deleted before re-creation, after what it needs and before the Deployments", () => {
    expect(checkMigrationJobs(render(migrateJob(hook), ...needs, workload("auth")))).toEqual([]);
  });

  it("rejects a plain Job of a fixed name, and a hook that is never deleted first", () => {
    expect(messages(checkMigrationJobs(render(migrateJob({}), ...needs)))).toEqual([
      expect.stringContaining("cannot be applied over the last release's"),
    ]);
    const kept = { ...hook, "argocd.argoproj.io/hook-delete-policy": "HookSucceeded" };
    expect(messages(checkMigrationJobs(render(migrateJob(kept), ...needs)))).toEqual([
      expect.stringContaining("must include BeforeHookCreation"),
    ]);
  });

  it("rejects a PreSync hook that needs the render's own ConfigMaps (their hashed names exist only after it)", () => {
    const preSync = { ...hook, "argocd.argoproj.io/hook": "PreSync" };
    const found = messages(checkMigrationJobs(render(migrateJob(preSync), ...needs)));
    expect(found).toContain(
      "a PreSync hook runs before this sync applies ConfigMap/migrate-config, which it needs: make it a Sync hook in a wave between them",
    );
  });

  it("rejects a Sync hook in the wave of what it needs, or of a Deployment", () => {
    const late = checkMigrationJobs(render(migrateJob(hook), config("migrate-config", {}, "-1"), serviceAccount));
    expect(messages(late)).toEqual([
      expect.stringContaining("ConfigMap/migrate-config (wave -1) must be in an earlier sync wave"),
    ]);
    const early = workload("auth");
    early.metadata.annotations = { "argocd.argoproj.io/sync-wave": "-1" };
    expect(messages(checkMigrationJobs(render(migrateJob(hook), ...needs, early)))).toEqual([
      expect.stringContaining("Deployment/auth (wave -1) must be in a later sync wave"),
    ]);
  });
});

describe("checkQuickStartDeletesJob", () => {
  it("accepts the README's quick start", () => {
    expect(checkQuickStartDeletesJob(readFileSync(join(root, "deploy/k8s/README.md"), "utf8"))).toEqual([]);
  });

  it("rejects an apply not preceded by deleting the Job in the same block", () => {
    const apply = "kubectl apply -f pulsegate.yaml -l 'app notin (gateway)'\n";
    expect(
      checkQuickStartDeletesJob(`\`\`\`sh\nkubectl -n x delete job migrate --ignore-not-found --wait\n${apply}`),
    ).toEqual([]);
    expect(checkQuickStartDeletesJob(`\`\`\`sh\n${apply}`)).toHaveLength(1);
    expect(
      checkQuickStartDeletesJob(
        `\`\`\`sh\nkubectl -n x delete job migrate --ignore-not-found --wait\n\`\`\`\n\n\`\`\`sh\n${apply}`,
      ),
    ).toHaveLength(1);
    expect(checkQuickStartDeletesJob("no apply at all")).toHaveLength(1);
  });
});

describe("checkConnectionBudget", () => {
  const services = (pool: string, replicas = 2) => [
    config("auth-config", { DB_POOL_MAX: pool }),
    config("alerts-config", { DB_POOL_MAX: pool }),
    config("monitors-config", { DB_POOL_MAX: pool }),
    config("migrate-config", { DB_POOL_MAX: "2" }),
    ...["auth", "alerts", "monitors"].map((app) =>
      workload(app, "Deployment", { replicas, strategy: { rollingUpdate: { maxSurge: 1 } } }),
    ),
    migrateJob(hook),
  ];

  it("counts every pool of every pod at the most replicas, mid-rollout, and the Job", () => {
    const result = checkConnectionBudget(render(...services("4")));
    // auth 3 × (4 + 1 + 1), alerts and monitors 3 × (4 + 1) (their two pools share DB_POOL_MAX), migrate 1 × (2 + 1).
    expect(result.total).toBe(18 + 15 + 15 + 3);
    expect(result.budget).toBe(80);
    expect(result.findings).toEqual([]);
  });

  it("refuses the services' own defaults at production replica counts (about 210 mid-rollout)", () => {
    const defaults = [
      config("auth-config", { DB_POOL_MAX: "10" }),
      config("alerts-config", { DB_POOL_MAX: "40" }),
      config("monitors-config", { DB_POOL_MAX: "20" }),
      ...["auth", "alerts", "monitors"].map((app) =>
        workload(app, "Deployment", { replicas: 2, strategy: { rollingUpdate: { maxSurge: 1 } } }),
      ),
    ];
    const result = checkConnectionBudget(render(...defaults));
    expect(result.total).toBe(3 * 12 + 3 * 41 + 3 * 21);
    expect(messages(result.findings)).toEqual([expect.stringContaining("over the budget of 80")]);
  });

  it("takes an HPA's maximum, a percentage surge, and the rendered PostgreSQL's max_connections", () => {
    const deployment = workload("alerts", "Deployment", {
      replicas: 2,
      strategy: { rollingUpdate: { maxSurge: "25%" } },
    });
    const hpa = {
      kind: "HorizontalPodAutoscaler",
      metadata: { name: "alerts" },
      spec: { scaleTargetRef: { kind: "Deployment", name: "alerts" }, maxReplicas: 10 },
    };
    expect(podsAtMost(render(deployment), deployment)).toEqual({ replicas: 2, surge: 1 });
    expect(podsAtMost(render(deployment, hpa), deployment)).toEqual({ replicas: 10, surge: 3 });
    const cluster = {
      apiVersion: "postgresql.cnpg.io/v1",
      kind: "Cluster",
      metadata: { name: "db" },
      spec: { postgresql: { parameters: { max_connections: "300" } } },
    };
    expect(checkConnectionBudget(render(...services("4"), cluster)).budget).toBe(280);
    expect(checkConnectionBudget(render(...services("4")), 200).budget).toBe(180);
  });

  it("requires DB_POOL_MAX, and knows every workload that reads DATABASE_URL", () => {
    const found = messages(
      checkConnectionBudget(render(config("auth-config", {}), workload("auth"), workload("reporter"))).findings,
    );
    expect(found).toContain(
      "DB_POOL_MAX must be set (a whole number) in its ConfigMap: the connection budget counts it",
    );
    expect(found).toContain("reads DATABASE_URL, but its connections per pod are unknown (CONNECTIONS_PER_POD)");
  });

  it("matches the code: the pools sized by DB_POOL_MAX and the LISTEN connections each service opens", () => {
    const sources = (service: string): string => {
      const dir = join(root, "services", service, "src");
      const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter(
        (file) => file.endsWith(".ts") && !file.endsWith(".test.ts"),
      );
      return files.map((file) => readFileSync(join(dir, file), "utf8")).join("\n");
    };
    for (const service of ["auth", "alerts", "monitors"]) {
      const code = sources(service);
      // A pool sized by the whole budget counts once; pools that split it between them (splitPoolBudget) count once together.
      const whole = (code.match(/(?:poolMax|max): config\.DB_POOL_MAX\b/g) ?? []).length;
      const split = /splitPoolBudget\(config\.DB_POOL_MAX\)/.test(code) ? 1 : 0;
      const pools = whole + split;
      const listeners = (code.match(/listenToChannel\(/g) ?? []).length;
      expect({ service, pools, extra: listeners }).toEqual({ service, ...CONNECTIONS_PER_POD[service] });
    }
  });
});

describe("checkHeap", () => {
  const node = (options: string | undefined, memory: string) =>
    workload(
      "gateway",
      "Deployment",
      {},
      {
        env: options === undefined ? [] : [{ name: "NODE_OPTIONS", value: options }],
        resources: { limits: { memory } },
      },
    );

  it("accepts a heap at most 75 % of the limit and at least 128 MiB under it", () => {
    expect(checkHeap(render(node("--max-old-space-size=384", "512Mi")))).toEqual([]);
    expect(checkHeap(render(node("--max-old-space-size=256", "384Mi")))).toEqual([]);
    expect(checkHeap(render(node("--max-old-space-size=1536", "2Gi")))).toEqual([]);
  });

  it("rejects a Node container without a heap size, or one that does not fit its limit", () => {
    expect(messages(checkHeap(render(node(undefined, "512Mi"))))).toEqual([
      "NODE_OPTIONS must set --max-old-space-size from limits.memory",
    ]);
    expect(messages(checkHeap(render(node("--max-old-space-size=288", "384Mi"))))).toEqual([
      "--max-old-space-size=288 does not fit limits.memory 384Mi: at most 256 (75 %, leaving 128 MiB)",
    ]);
    expect(checkHeap(render(node("--max-old-space-size=512", "512Mi")))).toHaveLength(1);
  });

  it("reads the flag from a ConfigMap or the command too, and leaves other images alone", () => {
    const fromConfig = workload("auth", "Deployment", {}, { resources: { limits: { memory: "512Mi" } } });
    expect(checkHeap(render(config("auth-config", { NODE_OPTIONS: "--max-old-space-size=384" }), fromConfig))).toEqual(
      [],
    );
    const inCommand = workload("auth", "Deployment", {}, { command: ["node", "--max-old-space-size=384", "main.ts"] });
    expect(checkHeap(render(inCommand))).toEqual([]);
    const redis = workload("redis", "StatefulSet", {}, { image: "redis:7.4.2", command: ["redis-server"] });
    expect(checkHeap(render(redis))).toEqual([]);
  });
});

describe("checkShutdownBudget", () => {
  const service = (grace: number | undefined, budgetMs: string | undefined, preStopSeconds = 5) => {
    const deployment = workload(
      "gateway",
      "Deployment",
      {},
      {
        env: budgetMs === undefined ? [] : [{ name: "SHUTDOWN_TIMEOUT_MS", value: budgetMs }],
        lifecycle: { preStop: { sleep: { seconds: preStopSeconds } } },
      },
    );
    if (grace !== undefined) deployment.spec.template.spec.terminationGracePeriodSeconds = grace;
    return deployment;
  };

  it("accepts a budget that, after the preStop sleep, ends before the grace period with a margin", () => {
    expect(checkShutdownBudget(render(service(45, "35000")))).toEqual([]);
    expect(checkShutdownBudget(render(service(undefined, "20000")))).toEqual([]);
  });

  it("refuses a budget the kubelet would cut short, and a service without one", () => {
    expect(messages(checkShutdownBudget(render(service(30, "25000"))))).toEqual([
      "preStop 5 s + SHUTDOWN_TIMEOUT_MS 25000 + 2 s of margin do not fit terminationGracePeriodSeconds 30",
    ]);
    expect(messages(checkShutdownBudget(render(service(45, undefined))))).toEqual([
      "SHUTDOWN_TIMEOUT_MS must be set in its ConfigMap, to fit terminationGracePeriodSeconds",
    ]);
  });
});
