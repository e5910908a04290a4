import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";

const root = resolve(import.meta.dirname, "../..");
const pinnedNode = resolve(root, "node_modules/.bin/node");
const nodeBinary = existsSync(pinnedNode) ? pinnedNode : process.execPath;

export type ServiceExit = { code: number | null; signal: NodeJS.Signals | null; at: number };

/**
 * One service as its own process, started as its Deployment starts it (telemetry loaded first),
 * with exactly the environment given (plus PATH): for a test about one process's start or stop.
 */
export class ServiceProcess {
  readonly child: ChildProcess;
  /** Resolves once it has exited and its output has been read to the end. */
  readonly exited: Promise<ServiceExit>;
  #output = "";
  readonly #waiters = new Set<() => void>();

  private constructor(child: ChildProcess) {
    this.child = child;
    const collect = (chunk: Buffer) => {
      this.#output += chunk.toString();
      for (const wake of this.#waiters) wake();
    };
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);
    this.exited = new Promise((done) =>
      child.once("close", (code, signal) => {
        done({ code, signal, at: Date.now() });
        for (const wake of this.#waiters) wake();
      }),
    );
  }

  static start(service: "gateway" | "auth" | "alerts" | "monitors", env: NodeJS.ProcessEnv): ServiceProcess {
    const child = spawn(
      nodeBinary,
      [
        "--conditions=@pulsegate/source",
        "--import",
        "@pulsegate/telemetry/register",
        `services/${service}/src/main.ts`,
      ],
      {
        cwd: root,
        env: { PATH: process.env.PATH, ...env },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    return new ServiceProcess(child);
  }

  get output(): string {
    return this.#output;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Resolves with the first output line matching `pattern`; rejects if it exits first or after `timeoutMs`. */
  async waitFor(pattern: RegExp, timeoutMs = 30_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const line = this.#output.split("\n").find((candidate) => pattern.test(candidate));
      if (line !== undefined) return line;
      if (!this.running) throw new Error(`exited before printing ${pattern}:\n${this.#output.slice(-4000)}`);
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`no line matching ${pattern} within ${timeoutMs} ms:\n${this.#output.slice(-4000)}`);
      await new Promise<void>((wake) => {
        const timer = setTimeout(wake, left);
        this.#waiters.add(() => {
          clearTimeout(timer);
          wake();
        });
      });
      this.#waiters.clear();
    }
  }

  /** SIGKILL unless it has exited; for afterAll. */
  async kill(): Promise<void> {
    if (this.running) this.child.kill("SIGKILL");
    await this.exited;
  }
}
