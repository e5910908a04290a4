// "Retry shortly" for work that was done: the database holds a request past the gateway's
// deadline, the caller hears 503, and the service commits the work once the database lets it go
// on. A retry under the same Idempotency-Key must then be answered from that work, not apply it a
// second time.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, sign } from "../support/client.ts";
import { eventually } from "../support/eventually.ts";
import { Stack } from "../support/stack.ts";

let stack: Stack;
let client: Client;
let db: pg.Pool;

beforeAll(async () => {
  stack = await Stack.create({
    databaseName: `pulsegate_e2e_idempotency_${process.pid}`,
    serviceEnv: (name) =>
      name === "gateway"
        ? { GRPC_TIMEOUT_MS: "1500" }
        : // A slow statement stays a slow statement here (it would send pings to the spool after 1 s).
          name === "monitors"
          ? { DB_ATTEMPT_TIMEOUT_MS: "20000" }
          : {},
  });
  client = new Client(stack.info);
  db = new pg.Pool({ connectionString: stack.info.databaseUrl, max: 4 });
}, 90_000);

afterAll(async () => {
  await db?.end();
  await stack?.destroy();
});

async function post(path: string, secret: string, body: string, key: string) {
  const response = await fetch(`${stack.info.baseUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-webhook-signature": sign(secret, body), "idempotency-key": key },
    body,
  });
  return {
    status: response.status,
    replayed: response.headers.get("idempotent-replayed"),
    body: (await response.json()) as Record<string, unknown>,
  };
}

/** Runs `hold` in a transaction of its own, sends the request meanwhile (503 at the gateway's deadline), then commits. */
async function answeredWhileHeld(
  hold: (tx: pg.PoolClient) => Promise<unknown>,
  send: () => Promise<{ status: number }>,
) {
  const tx = await db.connect();
  try {
    await tx.query("BEGIN");
    await hold(tx);
    const answer = await send();
    expect(answer.status).toBe(503);
  } finally {
    await tx.query("COMMIT");
    tx.release();
  }
}

const count = async (sql: string, id: string) => (await db.query<{ n: number }>(sql, [id])).rows[0]?.n;

describe("a request answered 503 whose work was done meanwhile", () => {
  it("a trigger: the retry under its key is answered from the stored alert, counted once", async () => {
    const { teamId, secret, webhookUrl } = await client.setup();
    const key = randomUUID();
    const body = JSON.stringify({ title: "Checkout failing", group_key: "checkout" });
    await answeredWhileHeld(
      // The advisory lock a trigger batch takes for its (team, group key) (key-lookups.sql.ts).
      (tx) =>
        tx.query("SELECT pg_advisory_xact_lock(hashtextextended('alerts:' || $1 || ':' || $2, 0))", [
          teamId,
          "checkout",
        ]),
      () => post(`/api/alerts/trigger/${webhookUrl}`, secret, body, key),
    );
    const stored = "SELECT count(*)::int AS n FROM alerts.occurrences WHERE team_id = $1";
    await eventually(async () => ((await count(stored, teamId)) === 1 ? true : undefined));
    const retry = await post(`/api/alerts/trigger/${webhookUrl}`, secret, body, key);
    expect([retry.status, retry.replayed, retry.body.status, retry.body.occurrenceCount]).toEqual([
      201,
      "true",
      "created",
      1,
    ]);
    expect(await count(stored, teamId)).toBe(1);
    const usage = await client.admin("GET", `/teams/${teamId}/usage`);
    expect(usage.body.usage).toMatchObject({ alerts: { used: 1 } });
  });

  it("a ping: the retry under its key is answered from the stored ping, which is stored once", async () => {
    const { secret, pingUrl, monitorId } = await client.setupMonitor();
    const key = randomUUID();
    const body = JSON.stringify({ status: "down", reason: "disk full" });
    await answeredWhileHeld(
      (tx) => tx.query("SELECT id FROM monitors.monitors WHERE id = $1 FOR UPDATE", [monitorId]),
      () => post(`/api/ping/${pingUrl}`, secret, body, key),
    );
    const stored = "SELECT count(*)::int AS n FROM monitors.pings WHERE monitor_id = $1";
    await eventually(async () => ((await count(stored, monitorId)) === 1 ? true : undefined));
    const retry = await post(`/api/ping/${pingUrl}`, secret, body, key);
    expect([retry.status, retry.replayed, retry.body.monitor]).toEqual([
      200,
      "true",
      { name: "Nightly backup", status: "down", monitoringActive: true },
    ]);
    expect(await count(stored, monitorId)).toBe(1);
  });
});
