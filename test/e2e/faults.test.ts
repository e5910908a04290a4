// Faults under a bounded mixed load, on a `npm start -- --replicas 2` stack of its own,
// loopback only. One replica of each service in turn is killed with SIGKILL: from 2 s after the kill
// until it is back, at least 95 % of the requests sent to either gateway are answered 2xx, it comes
// back, every acknowledged write is stored exactly once and every alert created is notified (at least
// once, a repeat under the same delivery id). Then PostgreSQL and Redis go away and come back under
// the same load, with the same accounting: this stack's PostgreSQL is reached through a TCP proxy that
// is cut and restored (the machine's server, shared with every other test file, keeps running), its
// Redis is a redis-server of its own, restarted for real. docs/operations.md ("Faults") has figures.
import { writeFileSync } from "node:fs";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { probeTcp } from "../../scripts/lib/probe.ts";
import { Client } from "../support/client.ts";
import { dropDatabase, TEST_DATABASE_SERVER } from "../support/database.ts";
import { eventually } from "../support/eventually.ts";
import { Receiver } from "../support/receiver.ts";
import { RedisServer } from "../support/redis-server.ts";
import { hostPortOf, TcpProxy } from "../support/tcp-proxy.ts";
import {
  formatDeliveries,
  formatFailures,
  formatTally,
  okShare,
  storedTags,
  type Tally,
  tally,
  tallyDeliveries,
  type Window,
} from "./fault-accounting.ts";
import { FaultLoad } from "./fault-load.ts";
import { createChannel } from "./notifications-helpers.ts";
import { StartProcess } from "./start-process.ts";

const databaseName = `pulsegate_faults_${process.pid}`;
/** Requests a second over both gateways: tens, on a machine of two shared cores. */
const RATE = 20;
/** Pings go round these monitors: RATE·0.3 pings/s makes 6 a minute per ping URL, under the spec's 10. */
const MONITORS = 60;
/** The asserted share of 2xx answers from 2 s after a fault until it is over. */
const MIN_OK_SHARE = 0.95;
/** Each phase lets the load run this long after the fault is over (its "after" window). */
const SETTLE_MS = 3_000;
/** How long a dependency stays away: about a restart's downtime. */
const OUTAGE_MS = 3_000;

let start: StartProcess | undefined;
let load: FaultLoad | undefined;
let receiver: Receiver | undefined;
let redis: RedisServer | undefined;
let proxy: TcpProxy | undefined;
let db: pg.Pool | undefined;

afterAll(async () => {
  await load?.stop().catch(() => undefined);
  // npm start's output (warnings and errors of every process), for a run that needs explaining.
  if (process.env.FAULTS_LOG_FILE && start) writeFileSync(process.env.FAULTS_LOG_FILE, start.output());
  if (start?.running) await start.stop("SIGINT", 60_000).catch(() => start?.kill());
  await db?.end();
  await proxy?.close();
  await redis?.destroy();
  await receiver?.close();
  await dropDatabase(databaseName);
});

/** Sleeps `ms`. */
const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

/**
 * A setup call, tried again after a 503 as a client would: on a machine this loaded a new database
 * connection can outlast its 5 s bound before the load has even begun.
 */
async function retried<T>(call: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (attempt === 3 || !/: 503 /.test((error as Error).message)) throw error;
      await pause(1_000);
    }
  }
}

/** Polls `listening` until it holds; the time it first did. */
async function until(listening: () => Promise<boolean>, timeoutMs: number, what: string): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await listening()) return Date.now();
    await pause(100);
  }
  throw new Error(`${what} not back within ${timeoutMs} ms`);
}

type Phase = {
  name: string;
  /** When the previous phase ended: requests sent since then may meet this fault in flight. */
  from: number;
  /** When the fault began. */
  at: number;
  /** When it was over: the process listened again, the dependency answered again. */
  backAt: number;
  /** When the load had run on for SETTLE_MS after it was over. */
  endAt: number;
  /**
   * Whether the 2xx share is held to MIN_OK_SHARE while the fault lasts, too: not while PostgreSQL
   * is away (nothing but pings can be stored then; docs/operations.md, "Faults").
   */
  heldDuring: boolean;
};

describe("faults under mixed load (npm start -- --replicas 2)", () => {
  it("keeps answering while one replica of each service is killed, and while PostgreSQL and Redis restart", async () => {
    receiver = await Receiver.start();
    redis = await RedisServer.start();
    proxy = await TcpProxy.start(hostPortOf(TEST_DATABASE_SERVER, 5432));
    const proxied = new URL(TEST_DATABASE_SERVER);
    proxied.hostname = proxy.host;
    proxied.port = String(proxy.port);
    proxied.pathname = `/${databaseName}`;

    start = await StartProcess.spawn({
      args: ["--replicas", "2"],
      env: {
        DATABASE_URL: proxied.toString(),
        REDIS_URL: redis.url,
        // Deliveries retried within seconds, a lease (2·attempt + 5 s) a killed replica's hold runs out of soon.
        NOTIFY_ATTEMPT_TIMEOUT_MS: "2000",
        NOTIFY_BACKOFF_BASE_MS: "200",
        NOTIFY_BACKOFF_MAX_MS: "2000",
        NOTIFY_MAX_ATTEMPTS: "30",
        NOTIFY_POLL_MS: "250",
        GRPC_DRAIN_MS: "2000",
        // Small pools: the PostgreSQL server (max_connections 100) is every test file's, and after a
        // restart every pool of the stack reconnects at once (the defaults would open up to 140 here).
        DB_POOL_MAX: "3",
      },
    });
    const running = start;
    const adminToken = await running.waitReady(150_000);
    const port = Number(new URL(running.baseUrl).port);
    const gateways = [running.baseUrl, `http://127.0.0.1:${port + 1}`];

    // A team, a webhook without a practical rate limit, a webhook channel to the receiver, the monitors.
    const admin = new Client({ baseUrl: gateways[0], adminToken } as never);
    const { teamId, secret, webhookUrl } = await retried(() => admin.setup({}, { rateLimitPerMinute: 100_000 }));
    const hook = receiver.url("/faults");
    await retried(() => createChannel(admin, teamId, { kind: "webhook", url: hook }));
    const monitors: { id: string; pingUrl: string }[] = [];
    for (let batch = 0; batch < MONITORS / 10; batch++) {
      const created = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          retried(() => admin.createMonitor(teamId, { name: `Fault load ${batch * 10 + i}` })),
        ),
      );
      monitors.push(...created.map((monitor) => ({ id: monitor.id, pingUrl: monitor.pingUrl })));
    }
    db = new pg.Pool({ connectionString: `${TEST_DATABASE_SERVER}/${databaseName}`, max: 2 });

    load = new FaultLoad({ gateways, adminToken, secret, teamId, webhookUrl, monitors });
    const loadStarted = Date.now();
    load.start(RATE);
    await pause(SETTLE_MS);

    const phases: Phase[] = [];
    let phaseFrom = Date.now();
    /**
     * Lets the load run on after a fault and records its phase, then waits for the requests sent
     * until then to end, so none of them meets the next fault: each request sent after the warm-up
     * belongs to one phase, the one whose fault it could meet.
     */
    const settled = async (name: string, at: number, backAt: number, heldDuring = true) => {
      await pause(SETTLE_MS);
      const endAt = Date.now();
      phases.push({ name, from: phaseFrom, at, backAt, endAt, heldDuring });
      phaseFrom = endAt;
      await (load as FaultLoad).ended(endAt);
    };
    /** Kills replica `replica` (0-based) of `service` and waits for npm start to have it back. */
    const kill = async (service: string, replica: number) => {
      const name = `${service}-${replica + 1}`;
      const byPort = running
        .processes()
        .filter((entry) => entry.service === service)
        .sort((a, b) => (a.port ?? Number(a.grpc?.split(":")[1])) - (b.port ?? Number(b.grpc?.split(":")[1])));
      expect(byPort, `${service} processes`).toHaveLength(2);
      const victim = byPort[replica] as (typeof byPort)[number];
      const at = Date.now();
      process.kill(victim.pid, "SIGKILL");
      const said = new RegExp(`\\[pulsegate\\] ${name} exited \\(SIGKILL\\); starting it again in 1 s`);
      await running.waitFor(said, 10_000);
      const listens = [victim.grpc, victim.signing].filter((address): address is string => Boolean(address));
      const backAt = await until(
        async () =>
          victim.port
            ? (await fetch(`http://127.0.0.1:${victim.port}/healthz`).catch(() => undefined))?.ok === true
            : (await Promise.all(listens.map((address) => probeTcp(address)))).every(Boolean),
        60_000,
        name,
      );
      const back = running
        .processes()
        .find((entry) => entry.service === service && entry.pid !== byPort[1 - replica]?.pid);
      expect(back && back.pid !== victim.pid, `${name} is back as a new process`).toBe(true);
      await settled(`kill -9 ${name}`, at, backAt);
    };

    await kill("gateway", 1);
    await kill("auth", 0);
    await kill("alerts", 1);
    await kill("monitors", 0);

    // PostgreSQL: every connection of this stack dropped, new ones refused, for a restart's downtime.
    const cutAt = Date.now();
    await proxy.cut();
    await pause(OUTAGE_MS);
    await proxy.restore();
    const pgBack = Date.now();
    await settled("PostgreSQL restart (proxy cut)", cutAt, pgBack, false);

    // Redis: a real restart of the stack's own redis-server (SIGTERM, down, started again).
    const redisAt = Date.now();
    await redis.restart(OUTAGE_MS);
    const redisBack = Date.now();
    await settled("Redis restart", redisAt, redisBack);

    await load.stop();
    const loadStopped = Date.now();

    // Spooled pings drain and deliveries go out after the load: wait (bounded) for the books to close.
    const sent = load.sent;
    const everything: Window = { from: loadStarted, to: loadStopped + 1 };
    const closed = async () => {
      const stored = await storedTags(db as pg.Pool, teamId);
      const books = tally(sent, everything, stored);
      const deliveries = await tallyDeliveries(db as pg.Pool, teamId, receiver?.requests ?? []);
      return { stored, books, deliveries };
    };
    await eventually(
      async () => {
        const { books, deliveries } = await closed();
        return books.missing.length === 0 && deliveries.undelivered.length === 0 ? true : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 500, what: "every acknowledged write stored and every alert notified" },
    ).catch(() => undefined);
    const { stored, books, deliveries } = await closed();

    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const lines = [`[faults] load: ${RATE} req/s over ${gateways.length} gateways; skipped ticks ${load.skipped}`];
    const checks: { phase: Phase; during: Tally; after: Tally }[] = [];
    for (const phase of phases) {
      // From 2 s after the fault until it is over; a fault over sooner leaves that window empty.
      const during = tally(sent, { from: phase.at + 2_000, to: Math.max(phase.backAt, phase.at + 2_000) }, stored);
      const after = tally(sent, { from: phase.backAt, to: phase.endAt }, stored);
      const whole = tally(sent, { from: phase.from, to: phase.endAt }, stored);
      checks.push({ phase, during, after });
      lines.push(
        `[faults] ${phase.name}: back after ${seconds(phase.backAt - phase.at)}`,
        `  whole phase (${seconds(phase.endAt - phase.from)}): ${formatTally(whole)}`,
        `  failures (time from the fault): ${formatFailures(whole, phase.at) || "none"}`,
        `  from 2 s after the fault until back: ${formatTally(during)}`,
        `  from back for ${seconds(phase.endAt - phase.backAt)}: ${formatTally(after)}`,
      );
    }
    lines.push(`[faults] whole run: ${formatTally(books)}`, `[faults] notifications: ${formatDeliveries(deliveries)}`);
    console.log(lines.join("\n"));

    expect(books.missing, "acknowledged writes missing").toEqual([]);
    expect(books.duplicates, "writes stored twice").toEqual([]);
    expect(deliveries.undelivered, "alerts never notified").toEqual([]);
    expect(deliveries.splitIds, "alerts notified under two delivery ids").toEqual([]);
    for (const { phase, during, after } of checks) {
      if (phase.heldDuring) {
        expect(okShare(during), `${phase.name}: ${formatTally(during)}`).toBeGreaterThanOrEqual(MIN_OK_SHARE);
      }
      expect(okShare(after), `${phase.name}, after: ${formatTally(after)}`).toBeGreaterThanOrEqual(MIN_OK_SHARE);
    }
    expect(await running.stop("SIGINT", 60_000)).toEqual({ code: 0, signal: null });
  }, 300_000);
});
