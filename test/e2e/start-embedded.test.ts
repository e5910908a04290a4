// `npm start -- --embedded`: no local server at all (DESIGN §8), as on a
// machine with neither PostgreSQL nor Redis: embedded PGlite, rate limits in
// process, no ping spool, and a banner that says exactly that. It serves the
// walk-through, then Ctrl-C stops everything. It used to say
// "Redis: none reachable" and then use the local Redis all the same.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { Client } from "../support/client.ts";
import { freePort } from "../support/free-port.ts";
import { StartProcess } from "./start-process.ts";

let start: StartProcess | undefined;
/** The embedded database's folder: tens of MiB, removed after the test. */
const dataDir = mkdtempSync(join(tmpdir(), "pulsegate-pglite-"));
// The local Redis the tests use: it IS running, and embedded mode must leave it alone.
const localRedis = new Redis(process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379", { lazyConnect: true });

afterAll(async () => {
  // SIGINT lets the start script stop the services it spawned.
  if (start?.running) await start.stop("SIGINT", 20_000).catch(() => start?.kill());
  localRedis.disconnect();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Keys in Redis that mention `token` (a webhook id or ping URL of this run). */
async function keysMentioning(token: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [next, batch] = await localRedis.scan(cursor, "MATCH", `*${token}*`, "COUNT", 1000);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== "0");
  return keys;
}

describe("npm start -- --embedded", () => {
  it("uses embedded PostgreSQL, no Redis at all (in-process limits, no spool), says so, and serves the walk-through", async () => {
    await localRedis.connect();
    expect(await localRedis.ping()).toBe("PONG");
    start = await StartProcess.spawn({
      args: ["--embedded"],
      env: {
        EMBEDDED_PG_PORT: String(await freePort()),
        PULSEGATE_DATA_DIR: dataDir,
        // No REDIS_URL: without --embedded the local Redis would be found and used.
      },
    });
    const adminToken = await start.waitReady(90_000);
    const output = start.output();
    // A first start says what it does before the slow part, then how long it took.
    expect(output).toMatch(
      /PostgreSQL: --embedded, using EMBEDDED PGlite \(data in \S+\/pglite\): creating the database, once \(a while on a slow machine\)…\n.*PostgreSQL: EMBEDDED PGlite at postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres, created in \d+\.\d s\n/,
    );
    for (const service of ["auth", "alerts", "monitors"]) {
      expect(output).toMatch(
        new RegExp(`\\[pulsegate\\] ${service} listening on 127\\.0\\.0\\.1:\\d+.* \\(\\d+\\.\\d s\\)\\n`),
      );
    }
    expect(output).toContain(
      "Redis: none (embedded mode): rate limits and dashboard sessions IN PROCESS (per gateway replica), no ping spool",
    );
    expect(output).toContain(`ready: gateway at ${start.baseUrl}`);

    const readyz = await fetch(`${start.baseUrl}/readyz`);
    expect(((await readyz.json()) as { checks: Record<string, string> }).checks.redis).toBe("none");

    const client = new Client({
      baseUrl: start.baseUrl,
      adminToken,
      databaseUrl: "",
      redisUrl: "",
      grpc: { auth: "", authSigning: "", alerts: "", monitors: "" },
      logFile: "",
    });
    const { teamId, secret, webhookId, webhookUrl } = await client.setup({}, { rateLimitPerMinute: 3 });
    const first = await client.trigger(webhookUrl, { title: "Embedded", group_key: "e" }, { secret });
    expect(first.body).toMatchObject({ status: "created", occurrenceCount: 1 });
    const second = await client.trigger(webhookUrl, { title: "Embedded", group_key: "e" }, { secret });
    expect(second.body).toMatchObject({ status: "occurrence_added", occurrenceCount: 2 });
    expect((await client.trigger(webhookUrl, { title: "3", group_key: "e" }, { secret })).status).toBe(201);
    // In-process limits still hold the line without Redis.
    expect((await client.trigger(webhookUrl, { title: "4", group_key: "e" }, { secret })).status).toBe(429);

    const monitor = await client.createMonitor(teamId);
    expect((await client.ping(monitor.pingUrl, undefined, { secret })).status).toBe(200);
    expect((await client.ping(monitor.pingUrl, { status: "down", reason: "disk" }, { secret })).status).toBe(200);

    // Nothing of this run reached the local Redis: no rate-limit window, no ping log.
    expect(await keysMentioning(webhookId)).toEqual([]);
    expect(await keysMentioning(monitor.pingUrl)).toEqual([]);

    const exit = await start.stop("SIGINT", 30_000);
    expect(exit).toEqual({ code: 0, signal: null });
  }, 120_000);
});
