// The image, run as a cluster would run it: every workload of a rendered overlay (production by
// default) started with podman exactly as its manifest says — command and args, environment from
// its ConfigMaps and Secret keys, user, read-only root with its emptyDir volumes as tmpfs,
// capabilities dropped, no privilege escalation, memory and CPU limits — against this machine's
// PostgreSQL and Redis. The migrate Job first (twice: it must be idempotent), then auth, alerts,
// monitors and the gateway; then a signed trigger, a signed ping, the dashboard, every /metrics
// endpoint and a trace, all through the containers; then a SIGTERM to each, as a rollout sends.
//
// Like pods, the containers share a network of their own (a podman bridge, made for the run) on
// which each workload answers to its Service's name (auth:50051, …); nothing is published on this
// machine's ports, so runs side by side and a local `npm start` do not collide. PostgreSQL, Redis
// and the OTLP collector of the ConfigMap are reached on the bridge's address on this machine.
//
// Usage: node scripts/image/smoke-test.ts IMAGE   (scripts/check-image.sh runs it)
// Environment: SMOKE_OVERLAY (default deploy/k8s/overlays/production), TEST_DATABASE_SERVER,
// TEST_REDIS_URL; podman reads CONTAINERS_CONF (check-image.sh sets it).
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sign } from "@pulsegate/sdk";
import pg from "pg";
import { parseAllDocuments } from "yaml";
import { OtlpReceiver } from "../../test/support/otlp-receiver.ts";
import { hostPortOf, TcpProxy } from "../../test/support/tcp-proxy.ts";
import { type Container, type PodSpec, podmanRunArgs, resolveEnv } from "./workload-args.ts";

const image = process.argv[2] ?? "";
if (!image) throw new Error("usage: smoke-test.ts IMAGE");
const overlay = process.env.SMOKE_OVERLAY ?? "deploy/k8s/overlays/production";
const databaseServer = process.env.TEST_DATABASE_SERVER ?? "postgres://postgres@127.0.0.1:5432";
const redisServer = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const PREFIX = `pulsegate-smoke-${process.pid}`;
const NETWORK = PREFIX;

type K8sObject = { kind: string; metadata: { name: string }; data?: Record<string, string>; spec?: unknown };
type Workload = { name: string; kind: "Job" | "Deployment"; pod: PodSpec; graceSeconds: number };

type Ran = { status: number | null; stdout: string; stderr: string };

/** podman, without blocking this process: it serves the containers' PostgreSQL and Redis proxies meanwhile. */
function podman(args: string[], options: { allowFailure?: boolean } = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn("podman", args, { stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", reject);
    child.on("close", (status) => {
      const ran = { status, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() };
      if (status !== 0 && !options.allowFailure) {
        reject(new Error(`podman ${args.slice(0, 2).join(" ")} failed (${status}): ${ran.stderr.slice(-2000)}`));
      } else resolve(ran);
    });
  });
}

function step(message: string): void {
  process.stdout.write(`smoke: ${message}\n`);
}

/** The overlay as kubectl renders it. */
function render(): K8sObject[] {
  const rendered = spawnSync(process.env.KUBECTL ?? "kubectl", ["kustomize", overlay], { encoding: "utf8" });
  if (rendered.status !== 0) throw new Error(`kubectl kustomize ${overlay}: ${rendered.stderr}`);
  return parseAllDocuments(rendered.stdout).map((doc) => doc.toJSON() as K8sObject);
}

function workloadsOf(objects: K8sObject[]): Workload[] {
  const byName = new Map<string, Workload>();
  for (const object of objects) {
    if (object.kind !== "Job" && object.kind !== "Deployment") continue;
    const template = (object.spec as { template: { spec: PodSpec } }).template;
    byName.set(object.metadata.name, {
      name: object.metadata.name,
      kind: object.kind,
      pod: template.spec,
      graceSeconds: template.spec.terminationGracePeriodSeconds ?? 30,
    });
  }
  const order = ["migrate", "auth", "alerts", "monitors", "gateway"];
  const missing = order.filter((name) => !byName.has(name));
  if (missing.length > 0) throw new Error(`${overlay} renders no ${missing.join(", ")}`);
  const extra = [...byName.keys()].filter((name) => !order.includes(name));
  if (extra.length > 0)
    throw new Error(`${overlay} renders workloads the smoke test does not know: ${extra.join(", ")}`);
  return order.map((name) => byName.get(name) as Workload);
}

/** The one container of a workload's pod (the manifests have no sidecars). */
function containerOf(workload: Workload): Container {
  const [container, ...more] = workload.pod.containers;
  if (!container || more.length > 0) throw new Error(`${workload.name}: expected exactly one container`);
  return container;
}

async function http(url: string, init: RequestInit = {}): Promise<{ status: number; text: string; json: unknown }> {
  const response = await fetch(url, { ...init, redirect: "manual", signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, text, json };
}

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((done) => setTimeout(done, 500));
  }
  throw new Error(`${what}: not within ${timeoutMs} ms${last ? ` (${String(last)})` : ""}`);
}

function check(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
  step(`ok: ${message}`);
}

async function main(): Promise<void> {
  const objects = render();
  const configMaps = new Map(
    objects.filter((o) => o.kind === "ConfigMap").map((o) => [o.metadata.name, o.data ?? {}] as const),
  );
  const workloads = workloadsOf(objects);
  step(`${overlay}: ${workloads.map((w) => w.name).join(", ")}; image ${image}`);

  const database = `pulsegate_smoke_${process.pid}`;
  const admin = new pg.Client({ connectionString: `${databaseServer}/postgres` });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${database}`);

  const work = mkdtempSync(join(tmpdir(), "pulsegate-smoke-"));
  chmodSync(work, 0o700);
  const started = new Map<string, string>();
  const closers: (() => Promise<unknown>)[] = [];
  let failed = false;
  try {
    // The network, brought up by a container that holds it (a bridge exists once a container uses it).
    await podman(["network", "create", NETWORK]);
    closers.push(async () => podman(["network", "rm", "--force", NETWORK], { allowFailure: true }));
    const holder = `${PREFIX}-network`;
    started.set("network", holder);
    await podman([
      "run",
      "--detach",
      "--name",
      holder,
      "--network",
      NETWORK,
      "--entrypoint",
      "sleep",
      image,
      "infinity",
    ]);
    const inspected = await podman([
      "network",
      "inspect",
      NETWORK,
      "--format",
      "{{range .Subnets}}{{.Gateway}}{{end}}",
    ]);
    const bridge = inspected.stdout.trim();
    if (!bridge) throw new Error(`network ${NETWORK} has no gateway address`);
    // This machine's PostgreSQL and Redis, and a stand-in for the ConfigMap's OTLP collector (port 4318), on the bridge.
    const pgProxy = await TcpProxy.start(hostPortOf(databaseServer, 5432), bridge);
    const redisProxy = await TcpProxy.start(hostPortOf(redisServer, 6379), bridge);
    const otlp = await OtlpReceiver.start(4318, bridge);
    closers.push(
      () => pgProxy.close(),
      () => redisProxy.close(),
      () => otlp.close(),
    );
    const databaseUrl = new URL(databaseServer);
    databaseUrl.host = `${bridge}:${pgProxy.port}`;
    databaseUrl.pathname = `/${database}`;
    const redisUrl = new URL(redisServer);
    redisUrl.host = `${bridge}:${redisProxy.port}`;
    // The Secret the quick start tells an operator to create (deploy/k8s/README.md), with throwaway values.
    const secrets: Record<string, string> = {
      DATABASE_URL: databaseUrl.toString(),
      REDIS_URL: redisUrl.toString(),
      ADMIN_TOKEN: randomBytes(24).toString("base64url"),
      SECRET_KEK: randomBytes(32).toString("base64"),
    };

    const run = async (workload: Workload, name: string, detach: boolean) => {
      const container = containerOf(workload);
      const resolved = resolveEnv(container, configMaps, secrets, { podName: name, namespace: "pulsegate" });
      const envFile = join(work, `${name}.env`);
      writeFileSync(envFile, resolved.envFile, { mode: 0o600 });
      started.set(workload.name, name);
      return await podman(
        podmanRunArgs({
          name,
          image,
          pod: workload.pod,
          container,
          envFile,
          network: NETWORK,
          // Its Service's name (each Service is named after its workload).
          aliases: [workload.name],
          hosts: [`otel-collector.observability.svc:${bridge}`],
          detach,
        }),
        { allowFailure: true },
      );
    };
    const addressOf = async (workload: string) =>
      (
        await podman([
          "inspect",
          "--format",
          "{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}",
          started.get(workload) as string,
        ])
      ).stdout.trim();

    const [migrate, ...services] = workloads as [Workload, ...Workload[]];
    for (const attempt of [1, 2]) {
      const result = await run(migrate, `${PREFIX}-migrate-${attempt}`, false);
      if (result.status !== 0) throw new Error(`migrate (run ${attempt}) exited ${result.status}: ${result.stderr}`);
      check(true, `the migrate Job ran to completion (run ${attempt} of 2)`);
    }
    for (const workload of services) {
      const result = await run(workload, `${PREFIX}-${workload.name}`, true);
      if (result.status !== 0) throw new Error(`${workload.name} did not start: ${result.stderr}`);
    }
    const gatewayPort = containerOf(workloads.find((w) => w.name === "gateway") as Workload).ports?.find(
      (port) => port.name === "http",
    )?.containerPort;
    if (!gatewayPort) throw new Error("the gateway declares no port named http");
    const base = `http://${await addressOf("gateway")}:${gatewayPort}`;
    // The startupProbe's budget (2 s × 60).
    await until("the gateway ready with auth, alerts and monitors up", 120_000, async () => {
      const ready = await http(`${base}/readyz`);
      const checks = (ready.json as { checks?: Record<string, string> } | undefined)?.checks ?? {};
      return ready.status === 200 && ["auth", "alerts", "monitors"].every((p) => checks[p] === "up") ? true : undefined;
    });
    check(true, "auth, alerts, monitors and the gateway started, and the gateway is ready with every peer up");
    check((await http(`${base}/healthz`)).status === 200, "the gateway's liveness probe answers 200");

    const adminCall = async (method: string, path: string, body?: unknown) =>
      http(`${base}/admin/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${secrets.ADMIN_TOKEN}`,
          ...(body ? { "content-type": "application/json" } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    const team = (await adminCall("POST", "/teams", { name: "Smoke" })).json as {
      team: { id: string };
      webhookSecret: string;
    };
    const hook = (await adminCall("POST", `/teams/${team.team.id}/webhooks`, { name: "CI" })).json as {
      webhook: { webhookUrl: string };
    };
    const monitor = (await adminCall("POST", `/teams/${team.team.id}/monitors`, { name: "Backup" })).json as {
      monitor: { pingUrl: string };
    };
    const traceId = randomBytes(16).toString("hex");
    const body = JSON.stringify({ title: "Smoke test", group_key: "smoke" });
    const trigger = await http(`${base}/api/alerts/trigger/${hook.webhook.webhookUrl}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-webhook-signature": sign(team.webhookSecret, body),
        // Sampled by the caller: the production sampler (parentbased_traceidratio 0.1) keeps it.
        traceparent: `00-${traceId}-${randomBytes(8).toString("hex")}-01`,
      },
      body,
    });
    check(
      trigger.status === 201 && (trigger.json as { status?: string }).status === "created",
      `a signed trigger is answered 201 created (${trigger.status} ${trigger.text.slice(0, 200)})`,
    );
    const ping = await http(`${base}/api/ping/${monitor.monitor.pingUrl}`, {
      method: "POST",
      headers: { "x-webhook-signature": sign(team.webhookSecret, "") },
    });
    check(ping.status === 200, `a signed ping is answered 200 (${ping.status} ${ping.text.slice(0, 200)})`);
    const dashboard = await http(`${base}/dashboard/login`);
    check(
      dashboard.status === 200 && dashboard.text.includes("<html"),
      `the dashboard's sign-in page is served (${dashboard.status})`,
    );
    for (const workload of services) {
      const metricsPort = containerOf(workload).ports?.find((port) => port.name === "metrics")?.containerPort;
      const scraped = metricsPort
        ? await http(`http://${await addressOf(workload.name)}:${metricsPort}/metrics`)
        : undefined;
      check(
        scraped?.status === 200 && scraped.text.includes("# TYPE"),
        `${workload.name} serves /metrics on its port "metrics" (${scraped?.status ?? "no port"})`,
      );
    }
    const tracing = await until("the trigger's spans from the gateway and alerts", 30_000, async () => {
      const names = new Set(otlp.spans.filter((span) => span.traceId === traceId).map((span) => span.service));
      return names.has("pulsegate-gateway") && names.has("pulsegate-alerts") ? [...names].sort() : undefined;
    });
    check(true, `the trigger's trace reached the OTLP endpoint from ${tracing.join(", ")}`);

    // A rollout's SIGTERM: each process drains and exits 0 within its grace period.
    for (const workload of [...services].reverse()) {
      const name = started.get(workload.name) as string;
      const begun = Date.now();
      await podman(["stop", "--time", String(workload.graceSeconds), name]);
      const code = (await podman(["inspect", "--format", "{{.State.ExitCode}}", name])).stdout.trim();
      check(
        code === "0",
        `${workload.name} stopped on SIGTERM with exit code ${code} after ${Date.now() - begun} ms (grace ${workload.graceSeconds} s)`,
      );
    }
  } catch (error) {
    failed = true;
    for (const name of started.values()) {
      const logs = await podman(["logs", "--tail", "40", name], { allowFailure: true });
      process.stderr.write(`\n--- ${name} (last lines) ---\n${logs.stdout}${logs.stderr}`);
    }
    throw error;
  } finally {
    for (const name of started.values()) await podman(["rm", "--force", "--time", "0", name], { allowFailure: true });
    for (const close of closers.reverse()) await close().catch(() => undefined);
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
    rmSync(work, { recursive: true, force: true });
    if (!failed) step("passed; containers and database removed");
  }
}

await main();
