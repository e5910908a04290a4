// DESIGN §5 / spec §4.2 "pings are not dropped": PostgreSQL (and Redis) taken away while pings arrive.
// The services reach both through TCP proxies this test cuts and restores; the machine's servers stay up.
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, type JsonResponse } from "../support/client.ts";
import { TEST_DATABASE_SERVER } from "../support/database.ts";
import { eventually } from "../support/eventually.ts";
import { Stack } from "../support/stack.ts";
import { hostPortOf, TcpProxy } from "../support/tcp-proxy.ts";

const databaseName = `pulsegate_e2e_outage_${process.pid}`;
const databaseServer = TEST_DATABASE_SERVER;
const redisServer = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

let pgProxy: TcpProxy;
let redisProxy: TcpProxy;
let stack: Stack;
let client: Client;
let db: pg.Pool;
let redis: Redis;

beforeAll(async () => {
  pgProxy = await TcpProxy.start(hostPortOf(databaseServer, 5432));
  redisProxy = await TcpProxy.start(hostPortOf(redisServer, 6379));
  const viaPgProxy = new URL(databaseServer);
  viaPgProxy.hostname = "127.0.0.1";
  viaPgProxy.port = String(pgProxy.port);
  viaPgProxy.pathname = `/${databaseName}`;
  const viaRedisProxy = new URL(redisServer);
  viaRedisProxy.hostname = "127.0.0.1";
  viaRedisProxy.port = String(redisProxy.port);
  stack = await Stack.create({
    databaseName,
    env: {
      DATABASE_URL: viaPgProxy.toString(),
      REDIS_URL: viaRedisProxy.toString(),
      SPOOL_DRAIN_INTERVAL_MS: "200",
      INCIDENT_POLL_MS: "250",
      SWEEP_INTERVAL_MS: "250",
    },
    // Failed drain passes are logged at debug level: the test awaits them.
    serviceEnv: (name) => (name === "monitors" ? { LOG_LEVEL: "debug" } : {}),
  });
  client = new Client(stack.info);
  db = new pg.Pool({ connectionString: stack.info.databaseUrl, max: 2 });
  redis = new Redis(redisServer, { lazyConnect: true });
  await redis.connect();
}, 90_000);

afterAll(async () => {
  await pgProxy?.restore();
  await redisProxy?.restore();
  await db?.end();
  await stack?.destroy();
  redis?.disconnect();
  await pgProxy?.close();
  await redisProxy?.close();
});

/** Longer than the caches of the test stack (WEBHOOK_CACHE_MS, VERIFIER_CACHE_MS: 200 ms). */
const CACHE_EXPIRY_MS = 400;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

type Sent = { status: "up" | "down"; reason?: string };

/**
 * How many drain passes monitors has logged as failed: the periodic runner logs each failed pass
 * with the task's name (an unreachable database at debug level, hence LOG_LEVEL debug below).
 */
function failedDrains(): number {
  return stack.output().split('spool drain"').length - 1;
}

async function storedPings(monitorId: string) {
  const { rows } = await db.query<{ status: string; reason: string | null; spooled: boolean; received_at: Date }>(
    "SELECT status, reason, spooled, received_at FROM monitors.pings WHERE monitor_id = $1 ORDER BY id",
    [monitorId],
  );
  return rows;
}

async function incidentActions(monitorId: string) {
  const { rows } = await db.query<{ kind: string; done: boolean }>(
    "SELECT kind, done_at IS NOT NULL AS done FROM monitors.incident_actions WHERE monitor_id = $1 ORDER BY id",
    [monitorId],
  );
  return rows;
}

describe("PostgreSQL unreachable", () => {
  it("answers every signed ping 200, spools it, and stores it once, in order, with its incidents", async () => {
    const { teamId, secret } = await client.createTeam();
    const backup = await client.createMonitor(teamId, { name: "backup" });
    const report = await client.createMonitor(teamId, { name: "report" });
    // Before the outage: one ping each, so every cache on the way has seen the monitors and the team.
    for (const monitor of [backup, report])
      expect((await client.ping(monitor.pingUrl, undefined, { secret })).status).toBe(200);

    await pgProxy.cut();
    // Past every cache lifetime (200 ms in tests): authentication now rests on the stale-on-error fallbacks.
    await sleep(CACHE_EXPIRY_MS);

    const plan: [typeof backup, Sent][] = [
      [backup, { status: "down", reason: "disk full" }],
      [report, { status: "down", reason: "cron failed" }],
      [backup, { status: "down", reason: "disk full" }],
      [backup, { status: "up" }],
      [report, { status: "down", reason: "cron failed" }],
      [backup, { status: "down", reason: "out of memory" }],
      [backup, { status: "up" }],
    ];
    const answers: JsonResponse[] = [];
    for (const [monitor, body] of plan) {
      answers.push(await client.ping(monitor.pingUrl, body, { secret }));
      await sleep(100);
    }
    // The GET form too (an up ping).
    answers.push(await client.ping(report.pingUrl, undefined, { secret, method: "GET" }));
    plan.push([report, { status: "up" }]);

    answers.forEach((answer, index) => {
      const [monitor, body] = plan[index] as [typeof backup, Sent];
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body).toEqual({
        message: "Ping received",
        monitor: { name: monitor.name, status: body.status, monitoringActive: true },
        pingStatus: body.status,
      });
    });
    // Nothing reached the database; everything waits in the spool.
    expect(await redis.xlen(`pulsegate:monitors:{${databaseName}}:ping-spool`)).toBe(plan.length);
    // Drain attempts fail meanwhile: awaited (two more logged failures), not slept.
    const failedBefore = failedDrains();
    await eventually(async () => (failedDrains() >= failedBefore + 2 ? true : undefined), {
      what: "two failed drain attempts",
    });
    expect(await redis.xlen(`pulsegate:monitors:{${databaseName}}:ping-spool`)).toBe(plan.length);

    await pgProxy.restore();

    for (const monitor of [backup, report]) {
      const expected = [
        { status: "up", reason: null },
        ...plan
          .filter(([m]) => m === monitor)
          .map(([, body]) => ({ status: body.status, reason: body.reason ?? null })),
      ];
      const rows = await eventually(
        async () => {
          const found = await storedPings(monitor.id);
          return found.length >= expected.length ? found : undefined;
        },
        { what: `${monitor.name}'s pings stored`, timeoutMs: 20_000 },
      );
      expect(rows.map((row) => ({ status: row.status, reason: row.reason }))).toEqual(expected);
      expect(rows.map((row) => row.spooled)).toEqual(expected.map((_, index) => index > 0));
      const times = rows.map((row) => row.received_at.getTime());
      expect([...times].sort((a, b) => a - b)).toEqual(times);
    }
    await eventually(async () =>
      (await redis.xlen(`pulsegate:monitors:{${databaseName}}:ping-spool`)) === 0 ? true : undefined,
    );

    expect(await client.getMonitor(backup.id)).toMatchObject({ status: "up", monitoringActive: true });
    expect(await client.getMonitor(report.id)).toMatchObject({ status: "up", monitoringActive: true });

    // Incidents of the spooled down pings: raised and resolved like live ones, in order.
    const backupActions = await eventually(async () => {
      const rows = await incidentActions(backup.id);
      return rows.length === 4 && rows.every((row) => row.done) ? rows : undefined;
    });
    expect(backupActions.map((row) => row.kind)).toEqual(["raise", "resolve", "raise", "resolve"]);
    const reportActions = await eventually(async () => {
      const rows = await incidentActions(report.id);
      return rows.length === 2 && rows.every((row) => row.done) ? rows : undefined;
    });
    expect(reportActions.map((row) => row.kind)).toEqual(["raise", "resolve"]);
    const alerts = (await client.admin("GET", `/teams/${teamId}/alerts`)).body.alerts as {
      sourceId: string;
      title: string;
      status: string;
      occurrenceCount: number;
    }[];
    const byMonitor = (id: string) => alerts.filter((alert) => alert.sourceId === id);
    expect(byMonitor(backup.id).map((alert) => [alert.status, alert.occurrenceCount])).toEqual([["resolved", 2]]);
    expect(byMonitor(report.id).map((alert) => [alert.status, alert.title])).toEqual([
      ["resolved", 'Monitor "report" is down: cron failed'],
    ]);

    // Live pings are written straight to the database again.
    expect((await client.ping(backup.pingUrl, undefined, { secret })).status).toBe(200);
    expect((await storedPings(backup.id)).at(-1)?.spooled).toBe(false);
  });

  it("answers 503 with Retry-After, never 200, when neither PostgreSQL nor Redis can store the ping", async () => {
    const { secret, pingUrl, monitorId } = await client.setupMonitor();
    expect((await client.ping(pingUrl, undefined, { secret })).status).toBe(200);

    await pgProxy.cut();
    await redisProxy.cut();
    await sleep(CACHE_EXPIRY_MS);
    const refused = await client.ping(pingUrl, { status: "down", reason: "nowhere to go" }, { secret });
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // The one "retry shortly" code, whichever process found its storage away (docs/decisions.md, Errors).
    expect(refused.body).toMatchObject({ code: "service_unavailable", error: expect.any(String) });
    await redisProxy.restore();
    await pgProxy.restore();

    // Once both are back, pings are stored again; the refused one never was.
    const accepted = await eventually(async () => {
      const answer = await client.ping(pingUrl, undefined, { secret });
      return answer.status === 200 ? answer : undefined;
    });
    expect(accepted.body.pingStatus).toBe("up");
    const rows = await eventually(async () => {
      const found = await storedPings(monitorId);
      return found.length >= 2 ? found : undefined;
    });
    expect(rows.map((row) => row.reason)).not.toContain("nowhere to go");
  });
});

describe("PostgreSQL lost under ping load", () => {
  it("stores every acknowledged ping exactly once, whether written, spooled or drained", async () => {
    const { teamId, secret } = await client.createTeam();
    const monitors = await Promise.all(
      Array.from({ length: 100 }, (_, i) => client.createMonitor(teamId, { name: `load ${i}` })),
    );
    const first = await Promise.all(monitors.map((monitor) => client.ping(monitor.pingUrl, undefined, { secret })));
    expect(first.every((answer) => answer.status === 200)).toBe(true);

    // Eight callers ping round-robin, about 200 a second for 3 s (each monitor stays under 10 a minute);
    // every ping carries its own reason.
    let sequence = 0;
    let stop = false;
    const acknowledged = new Set<string>();
    const refused = new Set<string>();
    const caller = async () => {
      while (!stop && sequence < 800) {
        const n = sequence++;
        const reason = `load-${n}`;
        const answer = await client.ping(
          (monitors[n % monitors.length] as (typeof monitors)[number]).pingUrl,
          { reason },
          { secret },
        );
        if (answer.status === 200) acknowledged.add(reason);
        else {
          expect(answer.status, JSON.stringify(answer.body)).toBe(503);
          refused.add(reason);
        }
        await sleep(40);
      }
    };
    const callers = Array.from({ length: 8 }, caller);
    // The database goes away mid-load (every connection dropped), and comes back; each phase lasts
    // until what it is for has happened, not for a fixed time.
    const spoolKey = `pulsegate:monitors:{${databaseName}}:ping-spool`;
    await eventually(async () => (acknowledged.size >= 80 ? true : undefined), {
      what: "80 pings acknowledged before the outage",
    });
    await pgProxy.cut();
    await eventually(async () => ((await redis.xlen(spoolKey)) >= 40 ? true : undefined), {
      what: "40 pings spooled during the outage",
      timeoutMs: 20_000,
    });
    await pgProxy.restore();
    const beforeRestore = acknowledged.size;
    // Load goes on while the database is back and the spool drains (unless all 800 pings are sent).
    await eventually(async () => (acknowledged.size >= beforeRestore + 80 || sequence >= 800 ? true : undefined), {
      what: "80 pings acknowledged after the outage",
      timeoutMs: 20_000,
    });
    stop = true;
    await Promise.all(callers);
    expect(acknowledged.size).toBeGreaterThan(100);

    await eventually(
      async () => ((await redis.xlen(`pulsegate:monitors:{${databaseName}}:ping-spool`)) === 0 ? true : undefined),
      { what: "spool drained", timeoutMs: 30_000 },
    );
    const { rows } = await db.query<{ reason: string; copies: string; spooled: boolean }>(
      `SELECT reason, count(*) AS copies, bool_or(spooled) AS spooled FROM monitors.pings
        WHERE team_id = $1 AND reason LIKE 'load-%' GROUP BY reason`,
      [teamId],
    );
    // The outage was felt: some pings went through the spool, the rest straight to the database.
    expect(rows.some((row) => row.spooled)).toBe(true);
    expect(rows.some((row) => !row.spooled)).toBe(true);
    const stored = new Map(rows.map((row) => [row.reason, Number(row.copies)]));
    const missing = [...acknowledged].filter((reason) => !stored.has(reason));
    const duplicated = [...stored].filter(([, copies]) => copies > 1);
    expect({ missing, duplicated }).toEqual({ missing: [], duplicated: [] });
  }, 60_000);
});

describe("PostgreSQL unreachable, alert triggers", () => {
  it("answers 503 with Retry-After (never 500) while the database is away, and 201 once it is back", async () => {
    // Retries below would otherwise run into the per-webhook rate limit.
    const { secret, webhookUrl } = await client.setup({}, { rateLimitPerMinute: 10_000 });
    expect((await client.trigger(webhookUrl, { title: "before", group_key: "o" }, { secret })).status).toBe(201);
    await pgProxy.cut();
    try {
      await sleep(CACHE_EXPIRY_MS);
      const during = await client.trigger(webhookUrl, { title: "during", group_key: "o" }, { secret });
      expect(during.status).toBe(503);
      expect(Number(during.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(during.body).toMatchObject({ code: "service_unavailable", error: expect.any(String) });
    } finally {
      await pgProxy.restore();
    }
    await eventually(
      async () => {
        const after = await client.trigger(webhookUrl, { title: "after", group_key: "o" }, { secret });
        expect(after.status).toBe(201);
        expect(after.body.status).toBe("occurrence_added");
        return after;
      },
      { intervalMs: 250 },
    );
  });
});
