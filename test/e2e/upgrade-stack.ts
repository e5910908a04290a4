// Processes of two releases against one database and one Redis, for the rolling-upgrade test: each
// service is its own process (as test/support/stack.ts starts them) from either release's directory,
// two replicas of each gRPC service (slots a and b), and every caller dials both replicas of what it
// calls, as it dials a Deployment's pods (`ipv4:a,b`, balanced round robin). A rolling update
// replaces one replica at a time: stop it, start the new release in its slot; the other serves
// meanwhile. (Not the new one in a free slot first: a caller's connection to an address that
// refused it backs off for up to two minutes, where Kubernetes would name only pods that exist.)
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { freePort } from "../support/free-port.ts";

const root = resolve(import.meta.dirname, "../..");
const pinnedNode = resolve(root, "node_modules/.bin/node");
const nodeBinary = existsSync(pinnedNode) ? pinnedNode : process.execPath;

export type Release = "previous" | "current";
export type Slot = "a" | "b";
type GrpcService = "auth" | "alerts" | "monitors";

type Ports = Record<GrpcService | "authSigning" | "gateway", Record<Slot, number>>;

const dialBoth = (ports: Record<Slot, number>) => `ipv4:127.0.0.1:${ports.a},127.0.0.1:${ports.b}`;

export class UpgradeStack {
  readonly adminToken: string;
  readonly #roots: Record<Release, string>;
  readonly #ports: Ports;
  readonly #env: NodeJS.ProcessEnv;
  readonly #children = new Map<string, ChildProcess>();
  readonly #output: string[] = [];

  private constructor(roots: Record<Release, string>, ports: Ports, env: NodeJS.ProcessEnv) {
    this.adminToken = env.ADMIN_TOKEN as string;
    this.#roots = roots;
    this.#ports = ports;
    this.#env = env;
  }

  static async create(options: {
    roots: Record<Release, string>;
    databaseUrl: string;
    redisUrl: string;
    redisKeyPrefix: string;
  }): Promise<UpgradeStack> {
    const two = async () => ({ a: await freePort(), b: await freePort() });
    const ports: Ports = {
      gateway: await two(),
      auth: await two(),
      authSigning: await two(),
      alerts: await two(),
      monitors: await two(),
    };
    return new UpgradeStack(options.roots, ports, {
      PATH: process.env.PATH,
      NODE_ENV: "test",
      LOG_LEVEL: "info",
      OTEL_SDK_DISABLED: "true",
      DATABASE_URL: options.databaseUrl,
      REDIS_URL: options.redisUrl,
      REDIS_KEY_PREFIX: options.redisKeyPrefix,
      SECRET_KEK: randomBytes(32).toString("base64"),
      // Twelve service processes on a shared server: a few connections each.
      DB_POOL_MAX: "3",
      AUTH_GRPC_ADDR: dialBoth(ports.auth),
      AUTH_SIGNING_GRPC_ADDR: dialBoth(ports.authSigning),
      ALERTS_GRPC_ADDR: dialBoth(ports.alerts),
      MONITORS_GRPC_ADDR: dialBoth(ports.monitors),
      // As test/support/stack.ts: short caches and quick retries; behaviour is the same.
      WEBHOOK_CACHE_MS: "200",
      VERIFIED_CACHE_MS: "200",
      VERIFIER_CACHE_MS: "200",
      GRPC_DRAIN_MS: "1000",
      NOTIFY_ALLOW_PRIVATE_NETWORKS: "true",
      NOTIFY_ATTEMPT_TIMEOUT_MS: "1000",
      NOTIFY_BACKOFF_BASE_MS: "200",
      NOTIFY_BACKOFF_MAX_MS: "1000",
      NOTIFY_POLL_MS: "100",
      ADMIN_TOKEN: randomBytes(24).toString("base64url"),
    });
  }

  gatewayUrl(slot: Slot): string {
    return `http://127.0.0.1:${this.#ports.gateway[slot]}`;
  }

  /** Starts `service` of `release` in `slot`; resolves once it listens (it has migrated by then). */
  async startService(service: GrpcService, release: Release, slot: Slot, timeoutMs = 45_000): Promise<void> {
    const instance = `${service}-${slot}`;
    // Only what this process prints: the slot's previous process said "listening" too.
    const printed = this.#output.length;
    const child = this.#spawn(instance, service, release, {
      GRPC_LISTEN_ADDR: `127.0.0.1:${this.#ports[service][slot]}`,
      ...(service === "auth" ? { SIGNING_GRPC_LISTEN_ADDR: `127.0.0.1:${this.#ports.authSigning[slot]}` } : {}),
    });
    const deadline = Date.now() + timeoutMs;
    const listening = (line: string) => line.startsWith(`[${instance} `) && line.includes(`${service} listening`);
    while (!this.#output.slice(printed).some(listening)) {
      if (child.exitCode !== null)
        throw new Error(`${instance} exited with ${child.exitCode}:\n${this.output(instance)}`);
      if (Date.now() > deadline)
        throw new Error(`${instance} did not listen in ${timeoutMs} ms:\n${this.output(instance)}`);
      await new Promise((done) => setTimeout(done, 50));
    }
  }

  /** Starts a gateway of `release` in `slot`; resolves once /readyz says every peer is up. */
  async startGateway(release: Release, slot: Slot, timeoutMs = 45_000): Promise<string> {
    const instance = `gateway-${slot}`;
    const child = this.#spawn(instance, "gateway", release, {
      PORT: String(this.#ports.gateway[slot]),
      HOST: "127.0.0.1",
    });
    const baseUrl = this.gatewayUrl(slot);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (child.exitCode !== null)
        throw new Error(`${instance} exited with ${child.exitCode}:\n${this.output(instance)}`);
      const body = await fetch(`${baseUrl}/readyz`).then(
        async (response) =>
          response.status === 200 ? ((await response.json()) as { checks?: Record<string, unknown> }) : null,
        () => null,
      );
      if (body && ["auth", "alerts", "monitors"].every((peer) => body.checks?.[peer] === "up")) return baseUrl;
      if (Date.now() > deadline)
        throw new Error(`${instance} not ready after ${timeoutMs} ms:\n${this.output(instance)}`);
      await new Promise((done) => setTimeout(done, 100));
    }
  }

  /** `npm run migrate` (scripts/migrate.ts) of `release`, as the Kubernetes Job runs it. */
  async migrate(release: Release): Promise<string> {
    const { stdout, stderr } = await promisify(execFile)(
      nodeBinary,
      ["--conditions=@pulsegate/source", "scripts/migrate.ts"],
      {
        cwd: this.#roots[release],
        env: this.#env,
        timeout: 60_000,
      },
    );
    return stdout + stderr;
  }

  /** SIGTERM, as a rolling update stops a pod; resolves with its exit code once its output is read. */
  async stop(instance: string): Promise<number | null> {
    const child = this.#children.get(instance);
    if (!child || child.exitCode !== null) return child?.exitCode ?? null;
    const exited = new Promise<number | null>((done) => child.once("close", (code) => done(code)));
    child.kill("SIGTERM");
    const code = await exited;
    this.#children.delete(instance);
    return code;
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.#children.keys()].map((instance) => this.stop(instance)));
  }

  /** What the processes printed, every one's or one instance's (`auth-a`), each line led by `[instance release]`. */
  output(instance?: string): string {
    const lines = instance ? this.#output.filter((line) => line.startsWith(`[${instance} `)) : this.#output;
    return lines.join("").slice(-6000);
  }

  allOutput(): string {
    return this.#output.join("");
  }

  /**
   * When each release's processes logged a prepared statement a migration made stale
   * ("cached plan must not change result type"), from their log lines' times.
   */
  staleStatementTimes(): Record<Release, number[]> {
    const times: Record<Release, number[]> = { previous: [], current: [] };
    for (const chunk of this.#output) {
      const release = chunk.match(/^\[\S+ (previous|current)\] /)?.[1] as Release | undefined;
      if (!release) continue;
      for (const line of chunk.split("\n")) {
        if (!line.includes("cached plan must not change result type")) continue;
        const time = line.match(/"time":"([^"]+)"/)?.[1];
        if (time) times[release].push(Date.parse(time));
      }
    }
    return times;
  }

  #spawn(instance: string, service: GrpcService | "gateway", release: Release, env: NodeJS.ProcessEnv): ChildProcess {
    if (this.#children.get(instance)?.exitCode === null) throw new Error(`${instance} is already running`);
    const child = spawn(
      nodeBinary,
      [
        "--conditions=@pulsegate/source",
        "--import",
        "@pulsegate/telemetry/register",
        `services/${service}/src/main.ts`,
      ],
      {
        cwd: this.#roots[release],
        env: { ...this.#env, ...env },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const collect = (chunk: Buffer) => this.#output.push(`[${instance} ${release}] ${chunk.toString()}`);
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);
    this.#children.set(instance, child);
    return child;
  }
}
