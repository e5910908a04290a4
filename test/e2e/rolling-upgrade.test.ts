// A rolling upgrade from the previous release (test/support/previous-release.ts) to this
// tree, across its migrations (docs/decisions.md, "Migrations: expand, then contract"). One database
// and one Redis. The previous release — two replicas of each service, one gateway — migrates the
// database to its schema and serves a signed load; this tree's `npm run migrate` runs under it (the
// Kubernetes Job), then the previous release's (an old pod restarting on the new schema); this
// tree's gateway joins the old one (new gateway, old services); each service is replaced one replica
// at a time (old and new side by side, calling old and new peers); the old gateway serves on with
// every service new, then leaves. Every acknowledged trigger and ping is stored exactly once
// (counted by tag), there is no 5xx but while a process is replaced (counted, bounded), and every
// alert created or reopened reaches a channel the previous release made before the migration and
// one it made after.
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { Client } from "../support/client.ts";
import { dropDatabase, recreateDatabase, TEST_DATABASE_SERVER } from "../support/database.ts";
import { eventually } from "../support/eventually.ts";
import { type CheckedOutRelease, checkOutRelease, previousRelease } from "../support/previous-release.ts";
import { Receiver } from "../support/receiver.ts";
import { createChannel } from "./notifications-helpers.ts";
import { type Attempt, acknowledged, GatewayPool, type LoadRequest, UpgradeLoad } from "./upgrade-load.ts";
import { eventsDue, inconsistentAlerts, reopenings, storedByTag } from "./upgrade-records.ts";
import { type Release, UpgradeStack } from "./upgrade-stack.ts";

const root = resolve(import.meta.dirname, "../..");
const databaseName = `pulsegate_upgrade_${process.pid}`;
const FOLD_KEYS = ["fold-a", "fold-b", "fold-c", "fold-d"];
/** Enough ping URLs for the load's pings to stay under 10 a minute each. */
const MONITORS = 30;
/** How long each mix of releases serves the load. */
const HOLD_MS = 3_000;
/** 5xx answers (or none at all) allowed while one process is replaced: the calls its SIGTERM races. */
const SWAP_5XX_BOUND = 10;
/** A replaced process's callers reconnect within their back-off: its window lasts this much longer. */
const SWAP_TAIL_MS = 1_500;
/**
 * How long the first replica's successor serves beside the other replica before that one is replaced
 * too, for a first replica that was away `awayMs`: every caller must have connected to the successor
 * by then, or it has no replica left while the second is replaced. gRPC clients retry a lost
 * connection with exponential back-off (grpc-js: 1 s, ×1.6 each time, ±20 %; this tree's clients cap
 * it, packages/grpc's RECONNECT_BACKOFF_MAX_MS, the previous release's do not), so a caller refused
 * for D may try again up to about 0.75 D after the successor is up: 12 s on a slow machine, where a
 * replica takes 15 s to start. (On Kubernetes the rollout's maxSurge 1 and maxUnavailable 0 keep a
 * ready replica throughout.)
 */
const sideBySideMs = (awayMs: number) => Math.max(HOLD_MS, Math.ceil(awayMs * 0.75) + SWAP_TAIL_MS);

const release = previousRelease();
let checkout: CheckedOutRelease | undefined;
let upgrade: UpgradeStack | undefined;
let db: pg.Pool | undefined;
const receivers: Receiver[] = [];

beforeAll(async () => {
  checkout = checkOutRelease(release.commit);
  await recreateDatabase(databaseName);
}, 200_000);

afterAll(async () => {
  await upgrade?.stopAll();
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await db?.end();
  await dropDatabase(databaseName);
  checkout?.remove();
});

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

type Window = { what: string; from: number; to: number };
/** A stretch of the roll, and the releases of the gateways that must have served in it. */
type Phase = Window & { via: Release[] };

describe("rolling upgrade from the previous release", () => {
  it("loses no acknowledged request, answers 5xx only while a process is replaced, and notifies every alert", async () => {
    if (!checkout) throw new Error("the previous release was not checked out");
    const timings: Record<string, number> = { checkout: checkout.ms };
    const began = Date.now();
    const databaseUrl = `${TEST_DATABASE_SERVER}/${databaseName}`;
    const stack = await UpgradeStack.create({
      roots: { previous: checkout.root, current: root },
      databaseUrl,
      redisUrl: process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379",
      redisKeyPrefix: `pulsegate-test:${databaseName}`,
    });
    upgrade = stack;
    onTestFailed(() => {
      const file = join(tmpdir(), `${databaseName}.log`);
      writeFileSync(file, stack.allOutput());
      console.error(`every process's output: ${file}`);
    });
    const database = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    db = database;

    // 1. The previous release alone: its services migrate the database to their schema.
    await Promise.all(
      (["auth", "alerts", "monitors"] as const).flatMap((service) =>
        (["a", "b"] as const).map((slot) => stack.startService(service, "previous", slot)),
      ),
    );
    const oldGateway = await stack.startGateway("previous", "a");
    timings.previousStarted = Date.now() - began;
    const pool = new GatewayPool();
    pool.add(oldGateway, "previous");

    const admin = new Client({ baseUrl: oldGateway, adminToken: stack.adminToken } as never);
    const { teamId, secret, webhookUrl } = await admin.setup({}, { rateLimitPerMinute: 100_000 });
    const pingUrls: string[] = [];
    for (let i = 0; i < MONITORS; i++) {
      pingUrls.push((await admin.createMonitor(teamId, { name: `drill ${i}` })).pingUrl);
    }
    const before = await Receiver.start();
    const after = await Receiver.start();
    receivers.push(before, after);
    await createChannel(admin, teamId, { kind: "webhook", url: before.url("/before"), name: "before" });

    const target = { adminToken: stack.adminToken, teamId, secret, webhookUrl, pingUrls, foldKeys: FOLD_KEYS };
    const load = new UpgradeLoad(target, pool);
    const phases: Phase[] = [];
    const swaps: Window[] = [];
    const hold = async (what: string, via: Release[], ms = HOLD_MS) => {
      const from = Date.now();
      await sleep(ms);
      phases.push({ what, from, to: Date.now(), via });
    };
    load.start();
    await hold("previous release", ["previous"]);

    // 2. This tree's migrations under load, as the migrate Job. Then, while the previous release
    // serves on the new schema: its own migrations, as one of its pods would run them on a restart
    // now; a channel it writes without the columns it does not know; and this tree's gateway
    // starting beside the old one.
    let mark = Date.now();
    expect(await stack.migrate("current")).toContain("schema up to date");
    timings.migrate = Date.now() - mark;
    mark = Date.now();
    const [migrated, , newGateway] = await Promise.all([
      stack.migrate("previous"),
      createChannel(admin, teamId, { kind: "webhook", url: after.url("/after"), name: "after" }),
      stack.startGateway("current", "b"),
    ]);
    expect(migrated).toContain("schema up to date");
    phases.push({ what: "previous release on the new schema", from: mark, to: Date.now(), via: ["previous"] });
    timings.gatewayStarted = Date.now() - mark;

    // 3. This tree's gateway beside the old one: a new gateway calling old services.
    pool.add(newGateway, "current");
    await hold("new gateway with old services", ["current", "previous"]);

    // 4. Each service in turn, one replica at a time (callers before callees).
    for (const service of ["monitors", "alerts", "auth"] as const) {
      for (const slot of ["a", "b"] as const) {
        const from = Date.now();
        expect(await stack.stop(`${service}-${slot}`)).toBe(0);
        await stack.startService(service, "current", slot);
        swaps.push({ what: `${service}-${slot} replaced`, from, to: Date.now() + SWAP_TAIL_MS });
        if (slot === "a") {
          await hold(`${service}: old and new side by side`, ["current", "previous"], sideBySideMs(Date.now() - from));
        }
      }
    }

    // 5. The old gateway with every service new; then it leaves the pool and stops.
    await hold("old gateway with new services", ["previous", "current"]);
    mark = Date.now();
    await pool.remove(oldGateway);
    expect(await stack.stop("gateway-a")).toBe(0);
    swaps.push({ what: "gateway-a stopped", from: mark, to: Date.now() + SWAP_TAIL_MS });
    await hold("this tree alone", ["current"], 1_500);
    await load.stop();
    timings.loadStopped = Date.now() - began;

    // What got no answer is sent again (same key, same bytes) until it has one.
    const unansweredFirst = load.requests.filter(
      (request) => (request.attempts[0]?.status ?? 0) >= 500 || request.attempts[0]?.status === 0,
    ).length;
    await load.retryUnacknowledged();
    const attempts = load.requests.flatMap((request) => request.attempts.map((attempt) => ({ request, attempt })));
    const windowAt = (at: number) => [...swaps, ...phases].find((window) => at >= window.from && at <= window.to);
    const explain = ({ request, attempt }: { request: LoadRequest; attempt: Attempt }) =>
      `${request.kind} ${request.key}: ${attempt.status} from the ${attempt.release} gateway at ${attempt.startedAt - began} ms ` +
      `(${windowAt(attempt.startedAt)?.what ?? "a retry"}) ${JSON.stringify(attempt.body).slice(0, 200)}`;

    // The previous release's own defect: its named statements over a table's * fail on connections
    // that prepared them before a migration added a column. Its 500s are those answered while a
    // previous-release process logged one; this tree names its columns and logs none.
    const stalePlans = stack.staleStatementTimes();
    expect(stalePlans.current, "stale prepared statements in this tree's processes").toEqual([]);
    const previousDefect = (attempt: Attempt) =>
      attempt.status === 500 &&
      stalePlans.previous.some((at) => at >= attempt.startedAt - 100 && at <= attempt.endedAt + 100);

    // Every answer is the expected one, but 5xx (or none) while a process is replaced.
    const failed = (attempt: Attempt) => attempt.status >= 500 || attempt.status === 0;
    const swapOf = (attempt: Attempt) =>
      swaps.find((swap) => attempt.endedAt >= swap.from && attempt.startedAt <= swap.to);
    const unexpected = attempts.filter(
      ({ request, attempt }) =>
        attempt.status !== (request.kind === "trigger" ? 201 : 200) &&
        !(failed(attempt) && swapOf(attempt)) &&
        !previousDefect(attempt),
    );
    expect(unexpected.slice(0, 10).map(explain)).toEqual([]);
    const perSwap = swaps.map((swap) => ({
      what: swap.what,
      failed: attempts.filter(({ attempt }) => failed(attempt) && swapOf(attempt) === swap).length,
    }));
    for (const swap of perSwap) expect(swap.failed, swap.what).toBeLessThanOrEqual(SWAP_5XX_BOUND);
    const writes = load.requests.filter((request) => request.kind !== "read");
    expect(writes.filter((request) => !acknowledged(request)).map((request) => request.key)).toEqual([]);

    // Each stretch carried acknowledged triggers and pings through the gateways it names.
    for (const phase of phases) {
      for (const via of phase.via) {
        for (const kind of ["trigger", "ping"] as const) {
          const done = attempts.filter(
            ({ request, attempt }) =>
              request.kind === kind &&
              attempt.release === via &&
              attempt.status < 300 &&
              attempt.startedAt >= phase.from &&
              attempt.endedAt <= phase.to,
          );
          expect(done.length, `${kind}s acknowledged by the ${via} gateway: ${phase.what}`).toBeGreaterThan(0);
        }
      }
    }

    // Stored exactly once, by tag; alerts, occurrences and their events agree.
    const stored = await storedByTag(database, teamId);
    for (const kind of ["trigger", "ping"] as const) {
      const sent = new Set(load.requests.filter((request) => request.kind === kind).map((request) => request.key));
      const wrong = [...sent].filter((key) => stored[kind].get(key) !== 1);
      expect(
        wrong.map((key) => `${key}: stored ${stored[kind].get(key) ?? 0}`),
        `${kind}s stored`,
      ).toEqual([]);
      expect(
        [...stored[kind].keys()].filter((key) => !sent.has(key)),
        `${kind}s never sent`,
      ).toEqual([]);
    }
    expect(await inconsistentAlerts(database, teamId)).toEqual([]);
    expect(await reopenings(database, teamId)).toBeGreaterThan(0);

    // Every alert.created and alert.reopened reached each channel that existed when it was written.
    for (const [name, receiver] of [
      ["before", before],
      ["after", after],
    ] as const) {
      const due = await eventsDue(database, teamId, name);
      expect(due.length).toBeGreaterThan(0);
      await eventually(
        async () => {
          const received = new Set(receiver.requests.map((request) => request.json.id));
          const missing = due.filter((event) => !received.has(event));
          if (missing.length > 0) throw new Error(`${missing.length} of ${due.length} missing, e.g. ${missing[0]}`);
          return true;
        },
        { timeoutMs: 30_000, what: `every event delivered to the channel made ${name} the migration` },
      );
      expect(receiver.requests.some((request) => request.json.type === "alert.resolved")).toBe(true);
    }

    // What this tree's gateway says of both webhook channels, whichever alerts answered it.
    const schemes = new Set(
      attempts
        .filter(
          ({ request, attempt }) =>
            request.path.endsWith("/channels") && attempt.release === "current" && attempt.status === 200,
        )
        .flatMap(({ attempt }) =>
          (attempt.body.channels as { name: string; signatureScheme: unknown }[]).map(
            (channel) => `${channel.name}: ${String(channel.signatureScheme)}`,
          ),
        ),
    );
    expect([...schemes].sort()).toEqual(["after: pulsegate", "before: pulsegate"]);

    timings.total = Date.now() - began;
    const previousDefects = attempts.filter(({ attempt }) => previousDefect(attempt)).length;
    console.info(
      `rolling upgrade from ${release.commit.slice(0, 12)} (${release.why}; node_modules ${checkout.modules}): ` +
        `${load.requests.length} requests, ${unansweredFirst} without an answer the first time, ` +
        `${previousDefects} 500s of the previous release's stale statements; 5xx per swap ${JSON.stringify(perSwap)}; ms ${JSON.stringify(timings)}`,
    );
    // 75 s alone on a quiet machine; under the whole suite on a slow one a replica takes up to 25 s to start,
    // and each pair's first successor then serves side by side for most of that again (sideBySideMs).
  }, 360_000);
});
