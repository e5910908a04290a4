import { describe, expect, it } from "vitest";
import {
  checkIdentity,
  checkOrderedApply,
  checkPolicy,
  type Manifest,
  matchesSelector,
  type Render,
  removedIn,
  strictFindings,
  strictProgram,
} from "./k8s-checks.ts";

const external = new Set(["pulsegate-secrets"]);

/** A workload that passes every policy rule, with a Service and the ConfigMap it reads. */
function hardened(): Manifest[] {
  return [
    { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "monitors-config" }, data: {} },
    {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "monitors", labels: { app: "monitors" } },
      spec: {
        selector: { matchLabels: { app: "monitors" } },
        template: {
          metadata: { labels: { app: "monitors" } },
          spec: {
            automountServiceAccountToken: false,
            securityContext: { runAsNonRoot: true, seccompProfile: { type: "RuntimeDefault" } },
            volumes: [{ name: "tmp", emptyDir: {} }],
            containers: [
              {
                name: "monitors",
                image: "pulsegate",
                ports: [
                  { name: "metrics", containerPort: 9464 },
                  { name: "grpc", containerPort: 50053 },
                ],
                envFrom: [{ configMapRef: { name: "monitors-config" } }],
                env: [{ name: "DATABASE_URL", valueFrom: { secretKeyRef: { name: "pulsegate-secrets", key: "x" } } }],
                securityContext: {
                  allowPrivilegeEscalation: false,
                  readOnlyRootFilesystem: true,
                  capabilities: { drop: ["ALL"] },
                },
                resources: { requests: { cpu: "100m", memory: "64Mi" }, limits: { cpu: "1", memory: "128Mi" } },
                volumeMounts: [{ name: "tmp", mountPath: "/tmp" }],
                readinessProbe: { grpc: { port: 50053 } },
                livenessProbe: { grpc: { port: 50053 } },
              },
            ],
          },
        },
      },
    },
    {
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: "monitors" },
      spec: {
        clusterIP: "None",
        selector: { app: "monitors" },
        ports: [
          { name: "grpc", port: 50053, targetPort: "grpc" },
          { name: "metrics", port: 9464, targetPort: "metrics" },
        ],
      },
    },
  ];
}

const policy = (objects: Manifest[], name = "base") => checkPolicy({ name, objects }, external);
const messages = (objects: Manifest[], name?: string) => policy(objects, name).findings.map((f) => f.message);
const container = (objects: Manifest[]) => objects[1].spec.template.spec.containers[0];

describe("removedIn", () => {
  it("names the Kubernetes version that stopped serving an API, for the kinds it lists", () => {
    expect(removedIn("extensions/v1beta1", "Ingress")).toBe(1.16);
    expect(removedIn("policy/v1beta1", "PodDisruptionBudget")).toBe(1.25);
    expect(removedIn("storage.k8s.io/v1beta1", "CSIStorageCapacity")).toBeUndefined();
    expect(removedIn("apps/v1", "Deployment")).toBeUndefined();
  });
});

describe("checkIdentity", () => {
  it("passes an object with apiVersion, kind and name of a served API on to its schema", () => {
    expect(checkIdentity("base", { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c" } })).toEqual({
      findings: [],
      schema: true,
    });
  });

  it("rejects non-objects, missing apiVersion or kind, a missing name and removed APIs", () => {
    expect(checkIdentity("base", ["x"])).toEqual({
      findings: [{ where: "base", message: "a document is not an object" }],
      schema: false,
    });
    expect(checkIdentity("base", { kind: "ConfigMap" }).findings[0]?.message).toBe("apiVersion and kind are required");
    expect(checkIdentity("base", { apiVersion: "v1", kind: "ConfigMap", metadata: {} })).toEqual({
      findings: [{ where: "base ConfigMap/?", message: "metadata.name is required" }],
      schema: true,
    });
    expect(
      checkIdentity("base", { apiVersion: "extensions/v1beta1", kind: "Ingress", metadata: { name: "i" } }),
    ).toEqual({
      findings: [
        {
          where: "base Ingress/i",
          message: "extensions/v1beta1 Ingress is no longer served (removed in Kubernetes 1.16)",
        },
      ],
      schema: false,
    });
  });
});

describe("strictProgram and strictFindings", () => {
  const render: Render = {
    name: "base",
    objects: [{ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c", labelz: { a: "b" } }, data: { k: "v" } }],
  };
  const program = strictProgram([render], () => true);
  const lines = program.source.split("\n");
  const lineOf = (text: string) => lines.findIndex((line) => line.includes(text)) + 1;

  it("declares every object and field against kubernetes-models' interface, and remembers where each line is from", () => {
    expect(lines[1]).toBe('import type { IConfigMap as T0 } from "kubernetes-models/v1/ConfigMap";');
    expect(program.source).toContain("export const v0: At<T0, []> = {");
    expect(program.source).toContain('At<T0, ["data","k"]> = "v";');
    expect(program.origin[lineOf('["metadata","labelz"]> = {') - 1]).toEqual({
      where: "base ConfigMap/c",
      path: "metadata.labelz",
    });
    expect(program.origin).toHaveLength(lines.length - 1);
  });

  it("reports an unknown field once, not the fields under it, and passes a clean run", () => {
    const labelz = lineOf('["metadata","labelz"]> = {');
    const underLabelz = lineOf('["metadata","labelz","a"]> =');
    const output = [
      `objects.ts(${labelz},7): error TS2322: Type '{ a: any; }' is not assignable to type 'never'.`,
      "  continuation line",
      `objects.ts(${underLabelz},7): error TS2322: Type 'string' is not assignable to type 'never'.`,
    ].join("\n");
    expect(strictFindings(output, program.origin)).toEqual([
      { where: "base ConfigMap/c", message: "strict: metadata.labelz: unknown field (not defined by the API)" },
    ]);
    expect(strictFindings("", program.origin)).toEqual([]);
  });

  it("reports a tsc that did not run properly", () => {
    expect(strictFindings("Cannot find module typescript", program.origin)).toEqual([
      { where: "tsc", message: "Cannot find module typescript" },
    ]);
  });
});

describe("checkPolicy", () => {
  it("accepts a hardened workload and notes the external Secrets it uses", () => {
    const { findings, externalUsed } = policy(hardened());
    expect(findings).toEqual([]);
    expect([...externalUsed]).toEqual(["pulsegate-secrets"]);
  });

  it("rejects a container that is not hardened", () => {
    const objects = hardened();
    const c = container(objects);
    c.securityContext = { capabilities: { add: ["NET_ADMIN"] }, privileged: true };
    c.volumeMounts = [];
    c.ports.push({ containerPort: 8080 });
    delete c.resources.limits.memory;
    delete c.livenessProbe;
    c.image = "nginx:latest";
    expect(messages(objects)).toEqual([
      "image nginx:latest is neither pulsegate nor a pinned redis or postgres",
      "readOnlyRootFilesystem must be true",
      "allowPrivilegeEscalation must be false",
      "capabilities.drop must include ALL",
      "capabilities.add must be empty",
      "privileged is not allowed",
      "resources.limits.memory is missing",
      "/tmp must be an emptyDir volume (the root filesystem is read-only)",
      "port 8080 has no name",
      "livenessProbe is missing",
    ]);
  });

  it("rejects references that do not resolve", () => {
    const objects = hardened();
    container(objects).envFrom.push({ configMapRef: { name: "missing" } }, { secretRef: { name: "other" } });
    objects[2].spec.ports[0].targetPort = "grpcc";
    objects.push({
      apiVersion: "autoscaling/v2",
      kind: "HorizontalPodAutoscaler",
      metadata: { name: "monitors" },
      spec: { scaleTargetRef: { kind: "Deployment", name: "gone" } },
    });
    expect(policy(objects).findings).toEqual([
      { where: "base Deployment/monitors container monitors", message: "ConfigMap missing is not rendered" },
      {
        where: "base Deployment/monitors container monitors",
        message: "Secret other is not rendered and not in EXTERNAL_SECRETS",
      },
      {
        where: "base Service/monitors",
        message: "targetPort grpcc is not a named container port of the selected pods",
      },
      { where: "base HorizontalPodAutoscaler/monitors", message: "scaleTargetRef Deployment/gone is not rendered" },
    ]);
  });

  it("rejects a gRPC Service with a virtual IP (each client connection would stick to one pod)", () => {
    const objects = hardened();
    delete objects[2].spec.clusterIP;
    expect(messages(objects)).toEqual([
      "a Service with a gRPC port must be headless (clusterIP: None) so clients balance over its pods",
    ]);
  });

  it("rejects a Redis that does not fsync its append-only file", () => {
    const objects = hardened();
    container(objects).image = "redis:7.4.1-alpine";
    container(objects).args = ["--appendonly", "yes"];
    expect(messages(objects)).toEqual([
      "redis must run with --appendonly yes --appendfsync always (the ping spool is acknowledged)",
    ]);
    container(objects).args = ["--appendonly", "yes", "--appendfsync", "always"];
    expect(messages(objects)).toEqual([]);
  });

  it("rejects an overlay's Ingress that routes the admin API", () => {
    const ingress = {
      apiVersion: "networking.k8s.io/v1",
      kind: "Ingress",
      metadata: { name: "web" },
      spec: {
        rules: [
          {
            host: "x",
            http: { paths: [{ path: "/", backend: { service: { name: "monitors", port: { name: "grpc" } } } }] },
          },
        ],
      },
    };
    expect(messages([...hardened(), ingress], "overlays/production")).toEqual([
      "routes /, which exposes the admin API (use components/admin-ingress)",
    ]);
    expect(messages([...hardened(), ingress], "base")).toEqual([]);
  });

  it("asks for PUBLIC_BASE_URL on the public TLS Ingress's host, not the admin one's", () => {
    const ingress = (name: string, path: string, host: string) => ({
      apiVersion: "networking.k8s.io/v1",
      kind: "Ingress",
      metadata: { name },
      spec: {
        tls: [{ hosts: [host], secretName: `${name}-tls` }],
        rules: [
          { host, http: { paths: [{ path, backend: { service: { name: "monitors", port: { name: "grpc" } } } }] } },
        ],
      },
    });
    const config = {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "gateway-config-abc123" },
      data: { PUBLIC_BASE_URL: "https://public.example.com" },
    };
    const both = [
      ...hardened(),
      config,
      ingress("gateway", "/api", "public.example.com"),
      ingress("gateway-admin", "/admin", "admin.example.com"),
    ];
    expect(messages(both, "base")).toEqual([]);
    config.data.PUBLIC_BASE_URL = "https://admin.example.com";
    expect(messages(both, "base")).toEqual([
      "PUBLIC_BASE_URL should be https://public.example.com (the TLS host of Ingress/gateway)",
    ]);
  });

  it("rejects a NetworkPolicy that admits Redis from pods other than its callers", () => {
    const objects = hardened();
    objects[1].metadata.name = "redis";
    objects[1].spec.selector.matchLabels.app = "redis";
    objects[1].spec.template.metadata.labels.app = "redis";
    objects[2].spec.selector.app = "redis";
    Object.assign(container(objects), {
      image: "redis:7.4.1",
      args: ["--appendonly", "yes", "--appendfsync", "always"],
      ports: [{ name: "redis", containerPort: 6379 }],
    });
    objects[2].spec.ports = [{ name: "redis", port: 6379, targetPort: "redis" }];
    const allow = (from: Manifest[]) => ({
      apiVersion: "networking.k8s.io/v1",
      kind: "NetworkPolicy",
      metadata: { name: "redis" },
      spec: { podSelector: { matchLabels: { app: "redis" } }, ingress: [{ from, ports: [{ port: 6379 }] }] },
    });
    expect(messages([...objects, allow([{ podSelector: { matchLabels: { app: "gateway" } } }])])).toEqual([]);
    expect(messages([...objects, allow([{ podSelector: { matchLabels: { app: "alerts" } } }])])).toEqual([
      "admits redis:redis (6379) from more than gateway, monitors",
    ]);
    expect(messages([...objects, allow([{ namespaceSelector: {} }])])).toEqual([
      "admits redis:redis (6379) from more than gateway, monitors",
    ]);
  });
});

describe("matchesSelector", () => {
  it("reads kubectl's equality- and set-based requirements", () => {
    const labels = { app: "migrate", tier: "db" };
    expect(matchesSelector("app notin (gateway,auth)", labels)).toBe(true);
    expect(matchesSelector("app notin (gateway, migrate)", labels)).toBe(false);
    expect(matchesSelector("app notin (gateway)", undefined)).toBe(true);
    expect(matchesSelector("app in (migrate,x),tier=db", labels)).toBe(true);
    expect(matchesSelector("app in (x)", labels)).toBe(false);
    expect(matchesSelector("tier!=db", labels)).toBe(false);
    expect(matchesSelector("app,!missing", labels)).toBe(true);
    expect(() => matchesSelector("app ~ x", labels)).toThrow(/cannot read/);
  });
});

describe("checkOrderedApply", () => {
  const job = {
    kind: "Job",
    metadata: { name: "migrate", labels: { app: "migrate" } },
    spec: {
      template: {
        spec: { serviceAccountName: "migrate", containers: [{ envFrom: [{ configMapRef: { name: "cfg-abc" } }] }] },
      },
    },
  };
  const render = (extra: object[]) => ({
    name: "overlays/production",
    objects: [
      job,
      { kind: "ServiceAccount", metadata: { name: "migrate" } },
      { kind: "ConfigMap", metadata: { name: "cfg-abc" } },
      { kind: "Deployment", metadata: { name: "gateway", labels: { app: "gateway" } } },
      ...extra,
    ],
  });
  it("takes the Job and what it needs first, and no Deployment", () => {
    expect(checkOrderedApply(render([]), "app notin (gateway)")).toEqual([]);
    expect(checkOrderedApply(render([]), "app=migrate").map((f) => f.message)).toEqual([
      "the first step does not apply ServiceAccount/migrate, which the Job needs",
      "the first step does not apply ConfigMap/cfg-abc, which the Job needs",
    ]);
    expect(checkOrderedApply(render([]), "!tier").map((f) => f.message)).toEqual([
      "the first step applies Deployment/gateway before the Job has run",
    ]);
  });
});
