import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { dropDatabase, recreateDatabase, TEST_DATABASE_SERVER } from "./database.ts";
import { freePort } from "./free-port.ts";

export type StackInfo = {
  baseUrl: string;
  adminToken: string;
  databaseUrl: string;
  redisUrl: string;
  /** authSigning: auth's second listener, where alone Sign is served (alerts dials it). */
  grpc: { auth: string; authSigning: string; alerts: string; monitors: string };
  /** Each service's Prometheus endpoint (host:port, path /metrics), when the stack was created with `metrics`. */
  metrics?: Record<ServiceName, string>;
  logFile: string;
};

export type ServiceName = "auth" | "alerts" | "monitors" | "gateway";

const root = resolve(import.meta.dirname, "../..");
// The pinned Node 24 (devDependency `node`), whatever node runs the tests.
const pinnedNode = resolve(root, "node_modules/.bin/node");
const nodeBinary = existsSync(pinnedNode) ? pinnedNode : process.execPath;

/** Every gRPC peer reported "up" in a /readyz body `{status, checks: {auth, alerts, monitors, redis}}`. */
function peersUp(body: unknown): boolean {
  const checks = (body as { checks?: Record<string, unknown> } | null)?.checks;
  return ["auth", "alerts", "monitors"].every((name) => checks?.[name] === "up");
}

/** A replica serves no /metrics unless given a METRICS_PORT of its own: its service's is taken. */
const REPLICA_METRICS: NodeJS.ProcessEnv = { METRICS_PORT: "0" };

/** A free port for each service's /metrics. */
async function metricsPorts(): Promise<Record<ServiceName, number>> {
  const [gateway, auth, alerts, monitors] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  return { gateway, auth, alerts, monitors };
}

/** Real services as separate processes, on free ports, against a fresh database. */
export class Stack {
  readonly info: StackInfo;
  readonly #env: Record<ServiceName, NodeJS.ProcessEnv>;
  /** Keyed by instance: a service's name, or the name given to an extra replica. */
  readonly #children = new Map<string, ChildProcess>();
  readonly #output: string[] = [];

  readonly #databaseName: string;
  readonly #server: string;

  private constructor(
    info: StackInfo,
    env: Record<ServiceName, NodeJS.ProcessEnv>,
    database: { name: string; server: string },
  ) {
    this.info = info;
    this.#env = env;
    this.#databaseName = database.name;
    this.#server = database.server;
  }

  static async create(options: {
    databaseName: string;
    redisUrl?: string;
    /** Extra environment for every service (overrides the defaults below). */
    env?: NodeJS.ProcessEnv;
    /** Extra environment for one service. */
    serviceEnv?: (name: ServiceName) => NodeJS.ProcessEnv;
    /** How long the services may take to be ready (default 45 s). */
    readyTimeoutMs?: number;
    /** Serve /metrics from every service (METRICS_PORT on a free port each), as a deployment does. */
    metrics?: boolean;
  }): Promise<Stack> {
    const server = TEST_DATABASE_SERVER;
    await recreateDatabase(options.databaseName, server);
    const databaseUrl = `${server}/${options.databaseName}`;
    const [gatewayPort, authPort, authSigningPort, alertsPort, monitorsPort] = await Promise.all([
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
    ]);
    const grpc = {
      auth: `127.0.0.1:${authPort}`,
      authSigning: `127.0.0.1:${authSigningPort}`,
      alerts: `127.0.0.1:${alertsPort}`,
      monitors: `127.0.0.1:${monitorsPort}`,
    };
    const ports = options.metrics ? await metricsPorts() : undefined;
    const metrics = ports && {
      gateway: `127.0.0.1:${ports.gateway}`,
      auth: `127.0.0.1:${ports.auth}`,
      alerts: `127.0.0.1:${ports.alerts}`,
      monitors: `127.0.0.1:${ports.monitors}`,
    };
    // METRICS_PORT starts the telemetry, which the stack otherwise keeps off (OTEL_SDK_DISABLED).
    const metricsEnv = (name: ServiceName): NodeJS.ProcessEnv =>
      ports ? { OTEL_SDK_DISABLED: "false", METRICS_PORT: String(ports[name]) } : {};
    const adminToken = randomBytes(24).toString("base64url");
    const redisUrl = options.redisUrl ?? process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
    const common: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      NODE_ENV: "test",
      LOG_LEVEL: "info",
      OTEL_SDK_DISABLED: "true",
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      ADMIN_TOKEN: adminToken,
      SECRET_KEK: randomBytes(32).toString("base64"),
      AUTH_GRPC_ADDR: grpc.auth,
      AUTH_SIGNING_GRPC_ADDR: grpc.authSigning,
      ALERTS_GRPC_ADDR: grpc.alerts,
      MONITORS_GRPC_ADDR: grpc.monitors,
      // Short caches so tests see changes quickly; behaviour is the same.
      WEBHOOK_CACHE_MS: "200",
      VERIFIED_CACHE_MS: "200",
      // A stopped gRPC service waits at most this long for its callers to let go (default 5 s).
      GRPC_DRAIN_MS: "1000",
      VERIFIER_CACHE_MS: "200",
      // Notifications go to receivers the tests start on 127.0.0.1 and retry
      // quickly; behaviour is the same.
      NOTIFY_ALLOW_PRIVATE_NETWORKS: "true",
      NOTIFY_ATTEMPT_TIMEOUT_MS: "1000",
      NOTIFY_BACKOFF_BASE_MS: "200",
      NOTIFY_BACKOFF_MAX_MS: "1000",
      NOTIFY_POLL_MS: "100",
      ...options.env,
    };
    const stack = new Stack(
      {
        baseUrl: `http://127.0.0.1:${gatewayPort}`,
        adminToken,
        databaseUrl,
        redisUrl,
        grpc,
        ...(metrics ? { metrics } : {}),
        logFile: "",
      },
      {
        auth: {
          ...common,
          GRPC_LISTEN_ADDR: grpc.auth,
          SIGNING_GRPC_LISTEN_ADDR: grpc.authSigning,
          ...metricsEnv("auth"),
          ...options.serviceEnv?.("auth"),
        },
        alerts: {
          ...common,
          GRPC_LISTEN_ADDR: grpc.alerts,
          ...metricsEnv("alerts"),
          ...options.serviceEnv?.("alerts"),
        },
        monitors: {
          ...common,
          GRPC_LISTEN_ADDR: grpc.monitors,
          ...metricsEnv("monitors"),
          ...options.serviceEnv?.("monitors"),
        },
        gateway: {
          ...common,
          PORT: String(gatewayPort),
          HOST: "127.0.0.1",
          // Stacks share one Redis and one client address (127.0.0.1): each keeps its sessions and
          // sign-in failure counts apart, so one test's failures never throttle another's.
          REDIS_KEY_PREFIX: `pulsegate-test:${options.databaseName}`,
          ...metricsEnv("gateway"),
          ...options.serviceEnv?.("gateway"),
        },
      },
      { name: options.databaseName, server },
    );
    for (const name of ["auth", "alerts", "monitors", "gateway"] as const) stack.start(name);
    try {
      await stack.waitReady(options.readyTimeoutMs);
    } catch (error) {
      // Never leave services running behind a failed start.
      await stack.stopAll();
      throw error;
    }
    return stack;
  }

  /**
   * Changes the environment of every service for its next start (e.g. a new
   * SECRET_KEK); processes already running keep theirs until restarted.
   */
  configure(env: NodeJS.ProcessEnv): void {
    for (const name of ["auth", "alerts", "monitors", "gateway"] as const) {
      this.#env[name] = { ...this.#env[name], ...env };
    }
  }

  start(name: ServiceName): void {
    this.#spawn(name, name, this.#env[name]);
  }

  /**
   * Starts one more process of a gRPC service (a replica, e.g. a second
   * monitors) as `instance`, on a free port of its own, with the service's
   * environment plus `env`; resolves once it logs that it listens. Stop it
   * with stop(instance); stopAll() stops it too. Returns its gRPC address.
   */
  async startReplica(
    name: Exclude<ServiceName, "gateway">,
    instance: string,
    env: NodeJS.ProcessEnv = {},
    timeoutMs = 30_000,
  ): Promise<string> {
    const address = `127.0.0.1:${await freePort()}`;
    // An auth replica needs its own signing port too (the first one holds the stack's).
    const signing = name === "auth" ? { SIGNING_GRPC_LISTEN_ADDR: `127.0.0.1:${await freePort()}` } : {};
    const child = this.#spawn(instance, name, {
      ...this.#env[name],
      GRPC_LISTEN_ADDR: address,
      ...signing,
      ...REPLICA_METRICS,
      ...env,
    });
    const deadline = Date.now() + timeoutMs;
    while (!this.#output.some((line) => line.startsWith(`[${instance}] `) && line.includes("listening"))) {
      if (child.exitCode !== null)
        throw new Error(`${instance} exited with ${child.exitCode}:\n${this.output().slice(-4000)}`);
      if (Date.now() > deadline) throw new Error(`${instance} did not start in ${timeoutMs} ms`);
      await new Promise((done) => setTimeout(done, 100));
    }
    return address;
  }

  /**
   * Starts one more gateway (a replica behind the same load balancer: same peers, same Redis,
   * same admin token) as `instance`, on a free port, with the gateway's environment plus `env`;
   * resolves with its base URL once it is ready with every peer up. Stop it with stop(instance).
   */
  async startGatewayReplica(instance: string, env: NodeJS.ProcessEnv = {}, timeoutMs = 45_000): Promise<string> {
    const port = await freePort();
    const child = this.#spawn(instance, "gateway", {
      ...this.#env.gateway,
      PORT: String(port),
      ...REPLICA_METRICS,
      ...env,
    });
    const baseUrl = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (child.exitCode !== null)
        throw new Error(`${instance} exited with ${child.exitCode}:\n${this.output().slice(-4000)}`);
      const ready = await fetch(`${baseUrl}/readyz`).then(
        async (response) => response.status === 200 && peersUp(await response.json()),
        () => false,
      );
      if (ready) return baseUrl;
      if (Date.now() > deadline) throw new Error(`${instance} not ready after ${timeoutMs} ms`);
      await new Promise((done) => setTimeout(done, 200));
    }
  }

  /** The process id of a running instance (a service's name, or an extra replica's), for /proc readings. */
  pidOf(instance: string): number | undefined {
    return this.#children.get(instance)?.pid;
  }

  #spawn(instance: string, name: ServiceName, env: NodeJS.ProcessEnv | undefined): ChildProcess {
    const child = spawn(
      nodeBinary,
      ["--conditions=@pulsegate/source", "--import", "@pulsegate/telemetry/register", `services/${name}/src/main.ts`],
      {
        cwd: root,
        env,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const collect = (chunk: Buffer) => this.#output.push(`[${instance}] ${chunk.toString()}`);
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);
    this.#children.set(instance, child);
    return child;
  }

  /** Everything the services printed so far (for log-hygiene assertions and failure reports). */
  output(): string {
    return this.#output.join("");
  }

  /** `name`: a service, or the instance name of a replica. */
  async stop(name: ServiceName | (string & {}), signal: NodeJS.Signals = "SIGTERM"): Promise<number | null> {
    const child = this.#children.get(name);
    if (!child || child.exitCode !== null) return child?.exitCode ?? null;
    // "close", not "exit": it comes after the child's output has been read to the end.
    const exited = new Promise<number | null>((done) => child.once("close", (code) => done(code)));
    child.kill(signal);
    const code = await exited;
    this.#children.delete(name);
    return code;
  }

  /**
   * Until /readyz answers 200 with auth, alerts and monitors all "up": the
   * gateway may be ready (200) with a peer still down, and tests need all.
   */
  async waitReady(timeoutMs = 45_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      for (const [name, child] of this.#children) {
        if (child.exitCode !== null) {
          throw new Error(`${name} exited with ${child.exitCode} during start:\n${this.output().slice(-4000)}`);
        }
      }
      const ready = await fetch(`${this.info.baseUrl}/readyz`).then(
        async (response) => response.status === 200 && peersUp(await response.json()),
        () => false,
      );
      if (ready) return;
      await new Promise((done) => setTimeout(done, 200));
    }
    throw new Error(`stack not ready after ${timeoutMs} ms:\n${this.output().slice(-4000)}`);
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.#children.keys()].map((name) => this.stop(name)));
  }

  /** Stops every process, then drops the stack's database (close your own pools on it first). */
  async destroy(): Promise<void> {
    await this.stopAll();
    await dropDatabase(this.#databaseName, this.#server);
  }
}
