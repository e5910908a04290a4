// Debian's Prometheus Alertmanager (`apt-get install prometheus-alertmanager`; .ci/run installs it)
// as a child process, for the Alertmanager integration's end-to-end test. ALERTMANAGER_PATH points
// elsewhere.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventually } from "./eventually.ts";
import { freePort } from "./free-port.ts";

const BINARY = process.env.ALERTMANAGER_PATH ?? "/usr/bin/prometheus-alertmanager";

/**
 * The configuration docs/integrations.md shows, with the test's own URL and token, and short waits
 * so that a test sees each notification within a second or two (docs: 30s, 5m).
 */
export function alertmanagerConfig(triggerUrl: string, bearerToken: string): string {
  return `route:
  receiver: pulsegate
  group_by: [alertname]
  group_wait: 1s
  group_interval: 1s
  repeat_interval: 1h
receivers:
  - name: pulsegate
    webhook_configs:
      - url: ${JSON.stringify(triggerUrl)}
        send_resolved: true
        max_alerts: 500
        http_config:
          authorization:
            type: Bearer
            credentials: ${JSON.stringify(bearerToken)}
`;
}

/** An alert as Alertmanager's API v2 takes it (POST /api/v2/alerts). */
export type PostableAlert = {
  labels: Record<string, string>;
  annotations?: Record<string, string>;
  startsAt?: string;
  endsAt?: string;
  generatorURL?: string;
};

/** An alert as Alertmanager's API v2 shows it (GET /api/v2/alerts). */
export type GettableAlert = PostableAlert & { fingerprint: string; status: { state: string } };

export class Alertmanager {
  readonly url: string;
  readonly #child: ChildProcess;
  readonly #directory: string;
  readonly #exited: Promise<void>;
  readonly #started: Promise<boolean>;
  #output = "";

  private constructor(child: ChildProcess, url: string, directory: string) {
    this.#child = child;
    this.url = url;
    this.#directory = directory;
    const collect = (chunk: Buffer) => {
      this.#output += chunk.toString();
    };
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);
    // A binary that is not there fails to start: said in the output, and it counts as exited.
    this.#exited = new Promise((done) => {
      child.once("close", () => done());
      child.once("error", (error) => {
        this.#output += `${String(error)}\n`;
        done();
      });
    });
    this.#started = new Promise((done) => child.once("spawn", () => done(true)).once("error", () => done(false)));
  }

  /** Started with `config` on a free port of 127.0.0.1, no clustering, its data in a temporary directory. */
  static async start(config: string): Promise<Alertmanager> {
    const directory = mkdtempSync(join(tmpdir(), "pulsegate-alertmanager-"));
    const configFile = join(directory, "alertmanager.yml");
    writeFileSync(configFile, config);
    const port = await freePort();
    const child = spawn(
      BINARY,
      [
        `--config.file=${configFile}`,
        `--storage.path=${join(directory, "data")}`,
        `--web.listen-address=127.0.0.1:${port}`,
        "--cluster.listen-address=",
        "--log.level=warn",
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    const alertmanager = new Alertmanager(child, `http://127.0.0.1:${port}`, directory);
    try {
      await eventually(
        async () => {
          if (!(await alertmanager.#started) || child.exitCode !== null) {
            throw new Error(`${BINARY} did not start or exited: ${alertmanager.#output}`);
          }
          return (await fetch(`${alertmanager.url}/-/ready`)).ok || undefined;
        },
        { what: "Alertmanager ready", timeoutMs: 10_000 },
      );
    } catch (error) {
      await alertmanager.stop();
      throw error;
    }
    return alertmanager;
  }

  /** Posts alerts as Prometheus does (firing; with an endsAt in the past, resolved). */
  async post(alerts: PostableAlert[]): Promise<void> {
    const response = await fetch(`${this.url}/api/v2/alerts`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(alerts),
    });
    if (!response.ok) throw new Error(`POST /api/v2/alerts: ${response.status} ${await response.text()}`);
  }

  /** The alerts Alertmanager holds as active, with their fingerprints. */
  async alerts(): Promise<GettableAlert[]> {
    const response = await fetch(`${this.url}/api/v2/alerts`);
    if (!response.ok) throw new Error(`GET /api/v2/alerts: ${response.status}`);
    return (await response.json()) as GettableAlert[];
  }

  /** What it printed (warnings and errors), for a failure's message. */
  output(): string {
    return this.#output;
  }

  async stop(): Promise<void> {
    if ((await this.#started) && this.#child.exitCode === null && this.#child.signalCode === null) {
      this.#child.kill("SIGTERM");
    }
    await this.#exited;
    rmSync(this.#directory, { recursive: true, force: true });
  }
}
