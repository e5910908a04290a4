// `npm start` (scripts/start.ts) as a child process for the start-* and
// shutdown-* tests: free ports for the gateway and every gRPC listener, so a
// developer's running stack never collides with it.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { REPLICA_PORT_STEP, replicasFrom } from "../../scripts/lib/start-addresses.ts";
import { freePort, freePortRange } from "../support/free-port.ts";

const root = resolve(import.meta.dirname, "../..");
const pinnedNode = resolve(root, "node_modules/.bin/node");
const nodeBinary = existsSync(pinnedNode) ? pinnedNode : process.execPath;

export type StartOptions = {
  args?: string[];
  /**
   * Added to a minimal environment (PATH, quiet logs, no OpenTelemetry SDK, free ports, a data
   * folder of its own: never the repository's .data, where a developer's token is kept).
   */
  env?: NodeJS.ProcessEnv;
  /** Its own process group, so the test can signal the group as a terminal or supervisor does. */
  detached?: boolean;
};

export type Exit = { code: number | null; signal: NodeJS.Signals | null };

/** A service process npm start runs, told apart from its replicas by where it listens. */
export type ServiceProcess = {
  pid: number;
  service: string;
  /** GRPC_LISTEN_ADDR of auth, alerts or monitors. */
  grpc: string | undefined;
  /** SIGNING_GRPC_LISTEN_ADDR of auth. */
  signing: string | undefined;
  /** PORT of a gateway. */
  port: number | undefined;
};

/**
 * Free ports for the gateway and the four gRPC listeners. With `--replicas N`, replica i of each
 * listens 10·i ports above it, and the gateways on the ports after the first's: all of them come
 * from one block that was free (five lone free ports would leave the replicas' to chance).
 */
async function listenPorts(args: string[]): Promise<number[]> {
  const count = replicasFrom(args);
  const replicas = "replicas" in count ? count.replicas : 1;
  if (replicas === 1) return Promise.all(Array.from({ length: 5 }, () => freePort()));
  // gRPC listeners at base..base+3 (+10·i each), then the gateways after the last replica's.
  const grpcSpan = REPLICA_PORT_STEP * (replicas - 1) + 4;
  const base = await freePortRange(grpcSpan + replicas);
  return [base + grpcSpan, base, base + 1, base + 2, base + 3];
}

export class StartProcess {
  readonly child: ChildProcess;
  readonly baseUrl: string;
  readonly exited: Promise<Exit>;
  #output = "";

  private constructor(child: ChildProcess, baseUrl: string) {
    this.child = child;
    this.baseUrl = baseUrl;
    const collect = (chunk: Buffer) => {
      this.#output += chunk.toString();
    };
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);
    // "close": after the output has been read to the end.
    this.exited = new Promise((done) => child.once("close", (code, signal) => done({ code, signal })));
  }

  static async spawn(options: StartOptions = {}): Promise<StartProcess> {
    // Removed once the start has exited, unless the test gave a folder of its own.
    const dataDir = mkdtempSync(join(tmpdir(), "pulsegate-start-"));
    const [port, auth, alerts, monitors, signing] = await listenPorts(options.args ?? []);
    const child = spawn(nodeBinary, ["--conditions=@pulsegate/source", "scripts/start.ts", ...(options.args ?? [])], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: "test",
        LOG_LEVEL: "warn",
        OTEL_SDK_DISABLED: "true",
        HOST: "127.0.0.1",
        PORT: String(port),
        AUTH_GRPC_ADDR: `127.0.0.1:${auth}`,
        ALERTS_GRPC_ADDR: `127.0.0.1:${alerts}`,
        MONITORS_GRPC_ADDR: `127.0.0.1:${monitors}`,
        AUTH_SIGNING_GRPC_ADDR: `127.0.0.1:${signing}`,
        PULSEGATE_DATA_DIR: dataDir,
        ...options.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
      detached: options.detached ?? false,
    });
    child.once("close", () => rmSync(dataDir, { recursive: true, force: true }));
    return new StartProcess(child, `http://127.0.0.1:${port}`);
  }

  output(): string {
    return this.#output;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Resolves once the output matches; rejects if the process exits first or time runs out. */
  async waitFor(pattern: RegExp, timeoutMs = 60_000): Promise<RegExpExecArray> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = pattern.exec(this.#output);
      if (match) return match;
      if (!this.running) throw new Error(`start exited before ${pattern}:\n${this.#output.slice(-4000)}`);
      if (Date.now() > deadline) throw new Error(`no ${pattern} after ${timeoutMs} ms:\n${this.#output.slice(-4000)}`);
      await new Promise((done) => setTimeout(done, 50));
    }
  }

  /** The admin token once the start script says the stack is ready (the banner prints it after "ready"). */
  async waitReady(timeoutMs = 60_000): Promise<string> {
    await this.waitFor(/\[pulsegate\] ready: gateway at /, timeoutMs);
    return (await this.waitFor(/admin token \(development\): (\S+)/, 5_000))[1] ?? "";
  }

  /** Signals the start script (SIGINT, as Ctrl-C) and waits for it to exit, at most `timeoutMs`. */
  async stop(signal: NodeJS.Signals = "SIGINT", timeoutMs = 60_000): Promise<Exit> {
    if (this.running) this.child.kill(signal);
    return this.waitExit(timeoutMs);
  }

  async waitExit(timeoutMs = 60_000): Promise<Exit> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`start did not exit in ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      return await Promise.race([this.exited, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The services the start script runs now, by their listen addresses: `ps` is not enough to tell replicas apart. */
  processes(): ServiceProcess[] {
    let children: string[];
    try {
      children = execFileSync("pgrep", ["-P", String(this.child.pid)], { encoding: "utf8" })
        .trim()
        .split("\n");
    } catch {
      return [];
    }
    return children.flatMap((text) => {
      const pid = Number(text);
      try {
        const command = readFileSync(`/proc/${pid}/cmdline`, "utf8");
        const service = /services\/(\w+)\/src\/main\.ts/.exec(command)?.[1];
        const environ = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
        const read = (name: string) =>
          environ.find((entry) => entry.startsWith(`${name}=`))?.slice(name.length + 1) || undefined;
        const port = service === "gateway" ? Number(read("PORT")) : undefined;
        return service
          ? [{ pid, service, grpc: read("GRPC_LISTEN_ADDR"), signing: read("SIGNING_GRPC_LISTEN_ADDR"), port }]
          : [];
      } catch {
        return [];
      }
    });
  }

  /** Last resort for afterAll: the whole group (when detached) or the script and what it started. */
  kill(): void {
    if (!this.running || this.child.pid === undefined) return;
    try {
      process.kill(-this.child.pid, "SIGKILL");
    } catch {
      this.child.kill("SIGKILL");
    }
  }
}
