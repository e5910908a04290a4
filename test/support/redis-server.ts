import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { probeRedis } from "../../scripts/lib/probe.ts";
import { freePort } from "./free-port.ts";

/**
 * A redis-server of a test's own, on a free port of 127.0.0.1, that the test may restart: the
 * machine's Redis serves every other test file meanwhile. Persistent as production's should be
 * (appendonly yes, appendfsync always, in a directory of its own), so a restart keeps what it held.
 */
export class RedisServer {
  readonly port: number;
  readonly url: string;
  readonly #dir: string;
  readonly #args: string[];
  #process: ChildProcess | undefined;

  private constructor(port: number, args: string[]) {
    this.port = port;
    this.#args = args;
    this.url = `redis://127.0.0.1:${port}`;
    this.#dir = mkdtempSync(join(tmpdir(), "pulsegate-redis-"));
  }

  /** `args`: more redis-server options, e.g. `--rename-command CONFIG ""` as some managed services do. */
  static async start(args: string[] = []): Promise<RedisServer> {
    const server = new RedisServer(await freePort(), args);
    await server.#run();
    return server;
  }

  /** Stops it (SIGTERM: Redis closes its clients and flushes the append-only file) and starts it again. */
  async restart(downMs = 0): Promise<void> {
    await this.stop();
    if (downMs > 0) await new Promise((done) => setTimeout(done, downMs));
    await this.#run();
  }

  async stop(): Promise<void> {
    const running = this.#process;
    this.#process = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((done) => running.once("exit", done));
    running.kill("SIGTERM");
    await exited;
  }

  /** Stops it and removes its files. */
  async destroy(): Promise<void> {
    await this.stop();
    rmSync(this.#dir, { recursive: true, force: true });
  }

  async #run(): Promise<void> {
    const args = ["--port", String(this.port), "--bind", "127.0.0.1", "--dir", this.#dir, "--save", ""];
    args.push("--appendonly", "yes", "--appendfsync", "always", ...this.#args);
    this.#process = spawn("redis-server", args, { stdio: "ignore" });
    for (let attempt = 0; attempt < 100; attempt++) {
      if (await probeRedis(this.url, 200)) return;
      await new Promise((done) => setTimeout(done, 50));
    }
    throw new Error(`redis-server on port ${this.port} did not answer within 5 s`);
  }
}
