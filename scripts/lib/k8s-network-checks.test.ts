import { describe, expect, it } from "vitest";
import type { Manifest, Render } from "./k8s-checks.ts";
import { checkEgress, checkGatewayIngress, checkRedisPassword, checkTrustProxy } from "./k8s-network-checks.ts";

const render = (name: string, ...objects: Manifest[]): Render => ({ name, objects });
const messages = (findings: { message: string }[]) => findings.map((f) => f.message);

const pod = (app: string, container: Manifest = {}): Manifest => ({
  apiVersion: "apps/v1",
  kind: app === "redis" ? "StatefulSet" : "Deployment",
  metadata: { name: app },
  spec: {
    template: {
      metadata: { labels: { app } },
      spec: { containers: [{ name: app, image: "pulsegate", ...container }] },
    },
  },
});
const policy = (name: string, app: string, spec: Manifest): Manifest => ({
  apiVersion: "networking.k8s.io/v1",
  kind: "NetworkPolicy",
  metadata: { name },
  spec: { podSelector: { matchLabels: { app } }, ...spec },
});
const dns = {
  to: [{ namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "kube-system" } } }],
  ports: [
    { protocol: "UDP", port: 53 },
    { protocol: "TCP", port: 53 },
  ],
};
/** monitors calls alerts :50052, which admits it. */
const admitsMonitors = policy("alerts", "alerts", {
  policyTypes: ["Ingress"],
  ingress: [
    { from: [{ podSelector: { matchLabels: { app: "monitors" } } }], ports: [{ protocol: "TCP", port: 50052 }] },
  ],
});
const toAlerts = {
  to: [{ podSelector: { matchLabels: { app: "alerts" } } }],
  ports: [{ protocol: "TCP", port: 50052 }],
};
const internet = (except: string[]) => ({ to: [{ ipBlock: { cidr: "0.0.0.0/0", except } }] });
const ALL_EXCEPT = [
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.168.0.0/16",
];

describe("checkEgress", () => {
  it("accepts restricted pods that keep DNS and every call admitted from them", () => {
    const objects = [
      pod("monitors"),
      pod("alerts"),
      admitsMonitors,
      policy("egress-monitors", "monitors", { policyTypes: ["Egress"], egress: [dns, toAlerts] }),
      policy("egress-alerts", "alerts", { policyTypes: ["Egress"], egress: [dns, internet(ALL_EXCEPT)] }),
    ];
    expect(checkEgress(render("overlays/production", ...objects))).toEqual([]);
  });

  it("requires every Pulsegate pod of a production render to be egress-restricted", () => {
    expect(messages(checkEgress(render("overlays/production", pod("gateway"))))).toEqual([
      "no Egress NetworkPolicy selects its pods (production includes components/egress-policies)",
    ]);
    expect(checkEgress(render("overlays/dev", pod("gateway")))).toEqual([]);
  });

  it("rejects a restricted pod without DNS, or without a call an ingress policy admits", () => {
    const objects = [
      pod("monitors"),
      pod("alerts"),
      admitsMonitors,
      policy("egress-monitors", "monitors", { policyTypes: ["Egress"], egress: [] }),
    ];
    expect(messages(checkEgress(render("overlays/dev", ...objects)))).toEqual([
      "its egress policies do not allow DNS (53/UDP)",
      "its egress policies do not allow DNS (53/TCP)",
      "NetworkPolicy/alerts admits it to alerts:50052, but its egress policies do not let it connect",
    ]);
    const wrongPort = { ...toAlerts, ports: [{ protocol: "TCP", port: 50053 }] };
    const withWrongPort = [
      ...objects.slice(0, 3),
      policy("egress-monitors", "monitors", { policyTypes: ["Egress"], egress: [dns, wrongPort] }),
    ];
    expect(checkEgress(render("overlays/dev", ...withWrongPort))).toHaveLength(1);
  });

  it("rejects the internet without its private, shared and link-local ranges, and a rule that allows everything", () => {
    const withoutMetadata = ALL_EXCEPT.filter((range) => range !== "169.254.0.0/16");
    const open = policy("egress-alerts", "alerts", {
      policyTypes: ["Egress"],
      egress: [dns, internet(withoutMetadata)],
    });
    expect(messages(checkEgress(render("overlays/dev", pod("alerts"), open)))).toEqual([
      "0.0.0.0/0 must except 169.254.0.0/16 (not the internet)",
    ]);
    // A wider exception covers a narrower range.
    const wide = policy("egress-alerts", "alerts", {
      policyTypes: ["Egress"],
      egress: [dns, internet(["0.0.0.0/1", "100.0.0.0/6", "128.0.0.0/1"])],
    });
    expect(checkEgress(render("overlays/dev", pod("alerts"), wide))).toEqual([]);
    const v6 = policy("egress-alerts", "alerts", {
      policyTypes: ["Egress"],
      egress: [dns, { to: [{ ipBlock: { cidr: "::/0" } }] }],
    });
    expect(messages(checkEgress(render("overlays/dev", pod("alerts"), v6)))).toEqual([
      "::/0 must except fc00::/7, fe80::/10 (or allow 2000::/3, global unicast, only)",
    ]);
    const everything = policy("egress-alerts", "alerts", { policyTypes: ["Egress"], egress: [dns, {}] });
    expect(messages(checkEgress(render("overlays/dev", pod("alerts"), everything)))).toEqual([
      "an egress rule without `to` or `ports` lets the pods reach everything",
    ]);
  });
});

describe("checkGatewayIngress", () => {
  const gateway = pod("gateway", { ports: [{ name: "http", containerPort: 8080 }] });
  const admitting = (from: Manifest[] | undefined) =>
    policy("gateway", "gateway", {
      policyTypes: ["Ingress"],
      ingress: [{ ...(from ? { from } : {}), ports: [{ protocol: "TCP", port: 8080 }] }],
    });

  it("accepts port 8080 from a namespace a selector names", () => {
    const controller = [{ namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "ingress-nginx" } } }];
    expect(checkGatewayIngress(render("r", gateway, admitting(controller)))).toEqual([]);
  });

  it("rejects port 8080 from every pod, every namespace, a pod selector or an address range", () => {
    for (const from of [
      undefined,
      [{ namespaceSelector: {} }],
      [{ podSelector: {} }],
      [{ ipBlock: { cidr: "10.0.0.0/8" } }],
    ]) {
      expect(messages(checkGatewayIngress(render("r", gateway, admitting(from))))).toEqual([
        "admits the gateway's port 8080 from more than the ingress controller's namespace (a namespaceSelector with labels)",
      ]);
    }
  });
});

describe("checkRedisPassword", () => {
  const secret = (name: string, data: Record<string, string>) => ({
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name },
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString("base64")])),
  });
  const redis = (args: string[]) =>
    pod("redis", {
      image: "redis:7.4.2-alpine",
      command: ["redis-server", "--appendonly", "yes", ...args],
      env: [
        { name: "REDIS_PASSWORD", valueFrom: { secretKeyRef: { name: "redis-credentials", key: "REDIS_PASSWORD" } } },
      ],
    });

  it("accepts a password from a Secret that the rendered REDIS_URL carries", () => {
    const objects = [
      redis(["--requirepass", "$(REDIS_PASSWORD)"]),
      secret("redis-credentials", { REDIS_PASSWORD: "s3cret" }),
      secret("pulsegate-secrets", { REDIS_URL: "redis://:s3cret@redis:6379/0" }),
    ];
    expect(checkRedisPassword(render("overlays/dev", ...objects))).toEqual([]);
    // Created out of band: nothing to compare.
    expect(checkRedisPassword(render("production+opt-in", redis(["--requirepass", "$(REDIS_PASSWORD)"])))).toEqual([]);
  });

  it("rejects Redis without a password, with a literal one, and a REDIS_URL without it", () => {
    expect(checkRedisPassword(render("r", redis([])))).toHaveLength(1);
    expect(checkRedisPassword(render("r", redis(["--requirepass", "hunter2"])))).toHaveLength(1);
    const objects = [
      redis(["--requirepass", "$(REDIS_PASSWORD)"]),
      secret("redis-credentials", { REDIS_PASSWORD: "s3cret" }),
      secret("pulsegate-secrets", { REDIS_URL: "redis://redis:6379/0" }),
    ];
    expect(messages(checkRedisPassword(render("overlays/dev", ...objects)))).toEqual([
      "REDIS_URL does not carry the password of Secret redis-credentials (redis://:PASSWORD@redis:6379/0)",
    ]);
  });
});

describe("checkTrustProxy", () => {
  const gateway = (value: string) => pod("gateway", { env: [{ name: "TRUST_PROXY", value }] });

  it("accepts private, shared, loopback and unique-local ranges", () => {
    expect(
      checkTrustProxy(render("r", gateway("10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,100.64.0.0/10,fc00::/7"))),
    ).toEqual([]);
    expect(checkTrustProxy(render("r", gateway("172.31.0.0/16, 10.244.0.0/16, 127.0.0.1, fd12:3456::/48")))).toEqual(
      [],
    );
  });

  it("rejects true, every address, and a public range", () => {
    expect(messages(checkTrustProxy(render("r", gateway("true"))))).toEqual([
      "TRUST_PROXY=true believes X-Forwarded-* from anyone: list the proxies' ranges",
    ]);
    expect(checkTrustProxy(render("r", gateway("0.0.0.0/0")))).toHaveLength(1);
    expect(checkTrustProxy(render("r", gateway("10.0.0.0/8,8.8.8.0/24")))).toHaveLength(1);
    expect(checkTrustProxy(render("r", gateway("172.0.0.0/8")))).toHaveLength(1);
    expect(checkTrustProxy(render("r", gateway("2001:db8::/32")))).toHaveLength(1);
  });
});
