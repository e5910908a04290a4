import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import { RULES_FILE, writeRulesFile } from "../../scripts/lib/prometheus-rules.ts";
import { freePort } from "./free-port.ts";

/**
 * A Prometheus configuration for Pulsegate: one job per service, named as the ServiceMonitor names
 * it (`pulsegate-<service>`, by which the rules and the dashboard select and group), each scraping
 * `host:port/metrics`, and the PrometheusRule's groups as RULES_FILE beside it.
 */
export function scrapeConfig(targets: Record<string, string>, intervalSeconds: number) {
  return {
    global: { scrape_interval: `${intervalSeconds}s`, evaluation_interval: `${intervalSeconds}s` },
    rule_files: [RULES_FILE],
    scrape_configs: Object.entries(targets).map(([service, target]) => ({
      job_name: `pulsegate-${service}`,
      static_configs: [{ targets: [target] }],
    })),
  };
}

/** Debian's `prometheus` (package prometheus) as a child process, on a free port, with its data in a temp dir. */
export class PrometheusServer {
  readonly url: string;
  readonly #child: ChildProcess;
  readonly #dir: string;
  readonly #output: string[] = [];
  /** "close", not "exit": after its output has been read to the end (also after a failed spawn). */
  readonly #closed: Promise<unknown>;

  private constructor(url: string, child: ChildProcess, dir: string) {
    this.url = url;
    this.#child = child;
    this.#dir = dir;
    this.#closed = new Promise((done) => child.once("close", done));
    const collect = (chunk: Buffer) => this.#output.push(chunk.toString());
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);
  }

  /** Starts it scraping `targets` (job → host:port) every `intervalSeconds`; resolves once it is ready. */
  static async start(targets: Record<string, string>, intervalSeconds: number): Promise<PrometheusServer> {
    const dir = mkdtempSync(join(tmpdir(), "pulsegate-prometheus-"));
    writeRulesFile(dir);
    writeFileSync(join(dir, "prometheus.yml"), stringify(scrapeConfig(targets, intervalSeconds)));
    const address = `127.0.0.1:${await freePort()}`;
    const child = spawn(
      "prometheus",
      [
        `--config.file=${join(dir, "prometheus.yml")}`,
        `--storage.tsdb.path=${join(dir, "data")}`,
        `--web.listen-address=${address}`,
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    const server = new PrometheusServer(`http://${address}`, child, dir);
    const spawned = new Promise<void>((resolve, reject) => {
      child.once("spawn", resolve);
      child.once("error", (error) =>
        reject(new Error(`prometheus: ${error.message} (Debian's package prometheus; .ci/run installs it)`)),
      );
    });
    try {
      await spawned;
      const deadline = Date.now() + 20_000;
      while (!(await server.ready())) {
        if (child.exitCode !== null) throw new Error(`prometheus exited with ${child.exitCode}:\n${server.output()}`);
        if (Date.now() > deadline) throw new Error(`prometheus not ready after 20 s:\n${server.output()}`);
        await new Promise((done) => setTimeout(done, 100));
      }
    } catch (error) {
      await server.stop();
      throw error;
    }
    return server;
  }

  /** Whether it answers /-/ready (it has loaded its configuration and rules). */
  ready(): Promise<boolean> {
    return fetch(`${this.url}/-/ready`).then(
      (response) => response.status === 200,
      () => false,
    );
  }

  /** The `data` of an HTTP API answer (`/api/v1/<path>`); throws on an error answer. */
  async api<T>(path: string): Promise<T> {
    const response = await fetch(`${this.url}/api/v1/${path}`);
    const body = (await response.json()) as { status: string; data: T; error?: string };
    if (body.status !== "success") throw new Error(`/api/v1/${path}: ${response.status} ${body.error}`);
    return body.data;
  }

  /** An instant query's result vector. */
  query(promql: string): Promise<{ result: { metric: Record<string, string>; value: [number, string] }[] }> {
    return this.api(`query?query=${encodeURIComponent(promql)}`);
  }

  output(): string {
    return this.#output.join("");
  }

  /** Stops it (SIGTERM, and waits for it to exit) and removes its data. */
  async stop(): Promise<void> {
    if (this.#child.exitCode === null && this.#child.signalCode === null) this.#child.kill("SIGTERM");
    await this.#closed;
    rmSync(this.#dir, { recursive: true, force: true });
  }
}
