// `npm start` on a machine with neither PostgreSQL nor Redis: the embedded
// fallback (DESIGN §8) serves signed triggers, then Ctrl-C stops everything.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Client } from "../support/client.ts";
import { freePort } from "../support/free-port.ts";

const root = resolve(import.meta.dirname, "../..");
let child: ChildProcess | undefined;

afterAll(async () => {
  // SIGINT lets the start script stop the services it spawned.
  if (child && child.exitCode === null) {
    const exited = new Promise((done) => child?.once("exit", done));
    child.kill("SIGINT");
    await Promise.race([exited, new Promise((done) => setTimeout(done, 20_000))]);
  }
});

describe("npm start with nothing reachable", () => {
  it("falls back to embedded PostgreSQL and in-process limits, says so, and serves the walk-through", async () => {
    const [port, auth, alerts, monitors, pgPort, deadRedis] = await Promise.all(
      Array.from({ length: 6 }, () => freePort()),
    );
    child = spawn(resolve(root, "node_modules/.bin/node"), ["scripts/start.ts", "--embedded"], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        AUTH_GRPC_ADDR: `127.0.0.1:${auth}`,
        ALERTS_GRPC_ADDR: `127.0.0.1:${alerts}`,
        MONITORS_GRPC_ADDR: `127.0.0.1:${monitors}`,
        EMBEDDED_PG_PORT: String(pgPort),
        PULSEGATE_DATA_DIR: mkdtempSync(join(tmpdir(), "pulsegate-pglite-")),
        // Nothing answers here: the gateway must limit in process and still serve.
        REDIS_URL: `redis://127.0.0.1:${deadRedis}`,
        OTEL_SDK_DISABLED: "true",
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const deadline = Date.now() + 90_000;
    while (!output.includes("admin token") && Date.now() < deadline && child.exitCode === null) {
      await new Promise((done) => setTimeout(done, 250));
    }
    expect(output).toContain("EMBEDDED PGlite");
    expect(output).toContain(`ready: gateway at http://127.0.0.1:${port}`);
    const adminToken = /admin token \(development\): (\S+)/.exec(output)?.[1] ?? "";
    expect(adminToken).not.toBe("");

    const client = new Client({
      baseUrl: `http://127.0.0.1:${port}`,
      adminToken,
      databaseUrl: "",
      redisUrl: "",
      grpc: { auth: "", alerts: "", monitors: "" },
      logFile: "",
    });
    const { secret, webhookUrl } = await client.setup({}, { rateLimitPerMinute: 3 });
    const first = await client.trigger(webhookUrl, { title: "Embedded", group_key: "e" }, { secret });
    expect(first.body).toMatchObject({ status: "created", occurrenceCount: 1 });
    const second = await client.trigger(webhookUrl, { title: "Embedded", group_key: "e" }, { secret });
    expect(second.body).toMatchObject({ status: "occurrence_added", occurrenceCount: 2 });
    expect((await client.trigger(webhookUrl, { title: "3", group_key: "e" }, { secret })).status).toBe(201);
    // In-process limits still hold the line without Redis.
    expect((await client.trigger(webhookUrl, { title: "4", group_key: "e" }, { secret })).status).toBe(429);

    const exited = new Promise<number | null>((done) => child?.once("exit", (code) => done(code)));
    child.kill("SIGINT");
    expect(await exited).toBe(0);
  }, 120_000);
});
