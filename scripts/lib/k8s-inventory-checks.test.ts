import { describe, expect, it } from "vitest";
import type { Manifest, Render } from "./k8s-checks.ts";
import {
  checkImagePins,
  checkIngresses,
  checkMonitoringDiscovery,
  checkNamespaceOwnership,
  checkPartOf,
  checkRedisMemory,
} from "./k8s-inventory-checks.ts";

const render = (name: string, ...objects: Manifest[]): Render => ({ name, objects });
const messages = (findings: { message: string }[]) => findings.map((f) => f.message);
const labelled = { "app.kubernetes.io/part-of": "pulsegate" };
const DIGEST = `sha256:${"a".repeat(64)}`;

const workload = (image: string, container: Manifest = {}): Manifest => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name: "w" },
  spec: { template: { spec: { containers: [{ name: "c", image, ...container }] } } },
});

describe("checkPartOf and checkNamespaceOwnership", () => {
  it("require the part-of label on every object", () => {
    const ok = { kind: "ConfigMap", metadata: { name: "a", labels: labelled } };
    const missing = { kind: "Secret", metadata: { name: "b", labels: { app: "x" } } };
    expect(checkPartOf(render("r", ok))).toEqual([]);
    expect(checkPartOf(render("r", ok, missing))).toEqual([
      { where: "r Secret/b", message: "needs the label app.kubernetes.io/part-of: pulsegate" },
    ]);
  });

  it("keep Namespaces out of overlays, not out of renders that opt in", () => {
    const namespace = { apiVersion: "v1", kind: "Namespace", metadata: { name: "pulsegate" } };
    expect(messages(checkNamespaceOwnership(render("overlays/production", namespace)))).toEqual([
      expect.stringContaining("must not own its Namespace"),
    ]);
    expect(checkNamespaceOwnership(render("production+namespace", namespace))).toEqual([]);
  });
});

describe("checkImagePins", () => {
  it("warns on a production image without a digest, and fails it when a digest is required", () => {
    const tagged = render("overlays/production", workload("registry.example.com/pulsegate:0.1.0"));
    expect(checkImagePins(tagged, false)).toEqual({
      errors: [],
      warnings: [
        {
          where: "overlays/production Deployment/w",
          message:
            "image registry.example.com/pulsegate:0.1.0 is pinned by tag only: a digest (@sha256:…) pins what runs",
        },
      ],
    });
    expect(checkImagePins(tagged, true).errors).toHaveLength(1);
  });

  it("accepts a digest (with or without a tag), fails latest or no version, and leaves dev alone", () => {
    for (const image of [
      `registry.example.com/pulsegate:0.1.0@${DIGEST}`,
      `registry.example.com:5000/pulsegate@${DIGEST}`,
    ]) {
      expect(checkImagePins(render("overlays/production", workload(image)), true)).toEqual({
        errors: [],
        warnings: [],
      });
    }
    for (const image of ["pulsegate", "pulsegate:latest", "registry.example.com:5000/pulsegate"]) {
      expect(checkImagePins(render("overlays/production", workload(image)), false).errors).toHaveLength(1);
    }
    expect(checkImagePins(render("overlays/dev", workload("pulsegate:dev")), true)).toEqual({
      errors: [],
      warnings: [],
    });
  });
});

describe("checkIngresses", () => {
  const ingress = (
    paths: string[],
    extra: { tls?: Manifest[]; annotations?: Record<string, string>; className?: string } = {},
  ) => ({
    apiVersion: "networking.k8s.io/v1",
    kind: "Ingress",
    metadata: { name: "i", annotations: extra.annotations ?? {} },
    spec: {
      ingressClassName: extra.className ?? "nginx",
      ...(extra.tls ? { tls: extra.tls } : {}),
      rules: [{ host: "a.example.com", http: { paths: paths.map((path) => ({ path })) } }],
    },
  });
  const external = new Set(["pulsegate-tls"]);
  const noLog = { "nginx.ingress.kubernetes.io/enable-access-log": "false" };

  it("requires TLS for the admin host", () => {
    expect(messages(checkIngresses(render("r", ingress(["/admin", "/dashboard"])), external))).toEqual([
      "serves the admin API on a.example.com without TLS (spec.tls for that host)",
    ]);
    const tls = [{ hosts: ["a.example.com"], secretName: "pulsegate-tls" }];
    expect(checkIngresses(render("r", ingress(["/admin"], { tls })), external)).toEqual([]);
  });

  it("requires each TLS Secret to be rendered, external, or cert-manager's", () => {
    const tls = [{ hosts: ["a.example.com"], secretName: "other-tls" }];
    expect(messages(checkIngresses(render("r", ingress(["/admin"], { tls })), external))).toEqual([
      "TLS Secret other-tls is not rendered, not in EXTERNAL_SECRETS, and no cert-manager issuer is named",
    ]);
    const issued = ingress(["/admin"], { tls, annotations: { "cert-manager.io/cluster-issuer": "letsencrypt" } });
    expect(checkIngresses(render("r", issued), external)).toEqual([]);
    const made = { kind: "Secret", metadata: { name: "other-tls" } };
    expect(checkIngresses(render("r", ingress(["/admin"], { tls }), made), external)).toEqual([]);
  });

  it("keeps the /api paths, which hold tokens, out of access logs", () => {
    expect(checkIngresses(render("r", ingress(["/api"], { annotations: noLog })), external)).toEqual([]);
    expect(messages(checkIngresses(render("r", ingress(["/api"])), external))).toEqual([
      expect.stringContaining("enable-access-log"),
    ]);
    const redacted = { "pulsegate/access-log": "path-redacted" };
    expect(checkIngresses(render("r", ingress(["/api"], { annotations: redacted })), external)).toEqual([]);
    // Another controller ignores ingress-nginx's annotation.
    const traefik = ingress(["/api"], { annotations: noLog, className: "traefik" });
    expect(messages(checkIngresses(render("r", traefik), external))).toEqual([
      expect.stringContaining("pulsegate/access-log"),
    ]);
  });
});

describe("checkRedisMemory", () => {
  const redis = (maxmemory: string | undefined, limit: string) =>
    workload("redis:7.4.2-alpine", {
      command: ["redis-server", ...(maxmemory ? ["--maxmemory", maxmemory] : [])],
      resources: { limits: { memory: limit } },
    });

  it("accepts maxmemory at most 60 % of the limit", () => {
    expect(checkRedisMemory(render("r", redis("384mb", "768Mi")))).toEqual([]);
    expect(checkRedisMemory(render("r", redis("300mb", "512Mi")))).toEqual([]);
  });

  it("rejects no maxmemory, and one that leaves an AOF rewrite's fork no room", () => {
    expect(checkRedisMemory(render("r", redis(undefined, "768Mi")))).toHaveLength(1);
    expect(messages(checkRedisMemory(render("r", redis("384mb", "512Mi"))))).toEqual([
      "--maxmemory 384mb is over 60 % of limits.memory 512Mi: an AOF rewrite's fork needs the rest",
    ]);
    expect(checkRedisMemory(render("r", redis("1gb", "1Gi")))).toHaveLength(1);
  });
});

describe("checkMonitoringDiscovery", () => {
  const monitor = (labels: Record<string, string>, relabelings: Manifest[]) => ({
    apiVersion: "monitoring.coreos.com/v1",
    kind: "ServiceMonitor",
    metadata: { name: "pulsegate", labels },
    spec: { endpoints: [{ port: "metrics", relabelings }] },
  });
  const renamed = [
    { sourceLabels: ["__meta_kubernetes_service_label_app"], targetLabel: "job", replacement: "pulsegate-$1" },
  ];

  it("accepts a release label and a job relabelled to pulsegate-…", () => {
    expect(checkMonitoringDiscovery(render("r", monitor({ release: "kube-prometheus-stack" }, renamed)))).toEqual([]);
  });

  it("rejects objects kube-prometheus-stack would not select, and the Service's name as job", () => {
    const rule = {
      apiVersion: "monitoring.coreos.com/v1",
      kind: "PrometheusRule",
      metadata: { name: "pulsegate", labels: {} },
    };
    expect(messages(checkMonitoringDiscovery(render("r", monitor({}, []), rule)))).toEqual([
      expect.stringContaining("needs the label `release`"),
      expect.stringContaining("needs the label `release`"),
      "endpoint metrics must relabel job to pulsegate-… (the rules select it; a Service's name alone is shared by other teams')",
    ]);
  });
});
