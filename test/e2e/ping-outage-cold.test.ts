// Auth holds every team's sealed keys (loaded at start, kept fresh), so a
// correctly signed ping from a team it never verified before is still answered 200 and spooled
// while PostgreSQL is away, instead of 503. The services reach PostgreSQL through a TCP proxy this
// test cuts and restores; the machine's server stays up.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "../support/client.ts";
import { TEST_DATABASE_SERVER } from "../support/database.ts";
import { eventually } from "../support/eventually.ts";
import { Stack } from "../support/stack.ts";
import { hostPortOf, TcpProxy } from "../support/tcp-proxy.ts";

const databaseName = `pulsegate_e2e_cold_outage_${process.pid}`;

let pgProxy: TcpProxy;
let stack: Stack;
let client: Client;
let db: pg.Pool;

beforeAll(async () => {
  pgProxy = await TcpProxy.start(hostPortOf(TEST_DATABASE_SERVER, 5432));
  const viaProxy = new URL(TEST_DATABASE_SERVER);
  viaProxy.hostname = "127.0.0.1";
  viaProxy.port = String(pgProxy.port);
  viaProxy.pathname = `/${databaseName}`;
  stack = await Stack.create({
    databaseName,
    env: { DATABASE_URL: viaProxy.toString(), SPOOL_DRAIN_INTERVAL_MS: "200", TEAM_DIRECTORY_REFRESH_MS: "200" },
  });
  client = new Client(stack.info);
  db = new pg.Pool({ connectionString: stack.info.databaseUrl, max: 2 });
}, 90_000);

afterAll(async () => {
  await pgProxy?.restore();
  await db?.end();
  await stack?.destroy();
  await pgProxy?.close();
});

describe("PostgreSQL unreachable before auth ever verified a team", () => {
  it("answers signed pings from three teams 200 and stores them once PostgreSQL is back", async () => {
    const setups = [];
    for (let i = 0; i < 3; i++) setups.push(await client.setupMonitor({ name: `cold team ${i}` }));
    // A fresh auth: what it knows of the teams it loaded at start, nothing from a verification.
    await stack.stop("auth");
    stack.start("auth");
    await stack.waitReady();
    // One more change after the start, made through the admin API: auth takes it in at once.
    const rotated = await client.admin("POST", `/teams/${setups[2]?.teamId}/webhook-secret/rotate`, {
      graceSeconds: 0,
    });
    expect(rotated.status).toBe(200);
    (setups[2] as { secret: string }).secret = rotated.body.webhookSecret as string;

    await pgProxy.cut();
    try {
      for (const setup of setups) {
        const answer = await client.ping(
          setup.pingUrl,
          { status: "up", reason: "during the outage" },
          {
            secret: setup.secret,
          },
        );
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        expect(answer.body).toMatchObject({ message: "Ping received", pingStatus: "up" });
      }
      // A wrong signature is still refused: the outage opens nothing up.
      const forged = await client.ping((setups[0] as { pingUrl: string }).pingUrl, undefined, {
        secret: "0".repeat(64),
      });
      expect(forged.status).toBe(401);
    } finally {
      await pgProxy.restore();
    }

    for (const setup of setups) {
      const rows = await eventually(
        async () => {
          const { rows: found } = await db.query<{ reason: string; spooled: boolean }>(
            "SELECT reason, spooled FROM monitors.pings WHERE monitor_id = $1",
            [setup.monitorId],
          );
          return found.length > 0 ? found : undefined;
        },
        { what: `${setup.monitorId}'s ping stored`, timeoutMs: 20_000 },
      );
      expect(rows).toEqual([{ reason: "during the outage", spooled: true }]);
    }
  }, 90_000);
});
