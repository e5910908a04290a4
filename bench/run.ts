// `npm run bench`: the signed paths against a bare Fastify route, measured in one run on this machine and
// reported as ratios to it and as absolutes (DESIGN §10). Targets 127.0.0.1 only; every load stops by
// itself after BENCH_SECONDS.
//
// Two stacks, one after the other: the first with telemetry off (as the test stack, and as the bare route),
// which the targets are for; the second the same with OpenTelemetry on as deployed (traces sampled by ratio,
// Prometheus metrics), for its cost and the gateway's batch histograms.
//
// Then, on the first stack, trigger latency before and after a million stored alerts (bench/trigger-at-scale.ts;
// BENCH_SCALE_ALERTS changes the million), and the missed-heartbeat sweep at 1,000 and 100,000 healthy monitors.
//
// BENCH_ONLY=bare,ping limits the run to the scenarios named, BENCH_TELEMETRY=0 skips the second stack;
// BENCH_PROFILE=<dir> makes every service write a CPU profile there when it stops (node --cpu-prof);
// BENCH_NODE_OPTIONS gives the services Node flags of its own (--perf-basic-prof for Linux `perf`, which
// samples CPU time only: on two shared cores --cpu-prof's samples pile up where a process was preempted).
import { spawn } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import { resolve } from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { Client } from "../test/support/client.ts";
import { freePort } from "../test/support/free-port.ts";
import { Stack } from "../test/support/stack.ts";
import { cpuByRole, cpuPerRequest } from "./process-cpu.ts";
import { sweeperAtScale } from "./sweeper-at-scale.ts";
import { type TriggerAtScaleResult, triggerAtScale } from "./trigger-at-scale.ts";

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ONLY = process.env.BENCH_ONLY ? process.env.BENCH_ONLY.split(",") : null;
const wanted = (name: string) => !ONLY || ONLY.some((word) => name.includes(word));

/** The services' NODE_OPTIONS: BENCH_NODE_OPTIONS, and the profiler's flags under BENCH_PROFILE. */
function serviceNodeOptions(): string {
  const profile = process.env.BENCH_PROFILE ? `--cpu-prof --cpu-prof-dir=${process.env.BENCH_PROFILE}` : "";
  return [process.env.BENCH_NODE_OPTIONS ?? "", profile].filter(Boolean).join(" ");
}

// Pings: 10 a minute per ping URL (spec), so the load rotates over enough monitors that none sees more than a
// few a minute: a warm-up round pings each once (as in steady state, the gateway then knows every active
// monitor), then the measured load at 5,000/s reaches each at most twice more.
const MONITORS = Number(process.env.BENCH_MONITORS ?? 30_000);

/** Absolute targets on the 2-core development machine, and floors as shares of the bare route. */
const TARGETS: Record<string, { rps: number; p99Ms?: number; minRatio: number }> = {
  "signed trigger (fold)": { rps: 3_000, minRatio: 0.05 },
  "signed trigger (create)": { rps: 2_000, minRatio: 0.03 },
  "signed ping (up)": { rps: 5_000, p99Ms: 25, minRatio: 0.06 },
};

type Result = {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  acknowledged: number;
  stored: number | null;
  non2xx: number;
  errors: number;
  /** CPU µs each process spent per answered request during the scenario. */
  cpu: Record<string, number>;
  /** Bytes of write-ahead log PostgreSQL wrote per answered request (what a replica or archive receives). */
  walBytes: number;
  /** Mean items per coalesced call and mean ms per call, by RPC (telemetry on only). */
  batches: Record<string, number>;
};
type Request = { path: string; body: string; headers: Record<string, string> };
type Measured = Omit<Result, "stored" | "cpu" | "walBytes" | "batches">;

/** Loads `url`, or with `next` a new request each time (own path, body and signature). */
async function load(
  name: string,
  url: string,
  body: string,
  headers: Record<string, string>,
  next?: () => Request,
): Promise<Measured> {
  const result = await autocannon({
    url,
    method: "POST",
    body,
    headers: { "content-type": "application/json", ...headers },
    connections: CONNECTIONS,
    duration: DURATION,
    ...(next
      ? {
          requests: [
            {
              setupRequest: (request: autocannon.Request) => {
                const made = next();
                return {
                  ...request,
                  path: made.path,
                  body: made.body,
                  headers: { ...request.headers, ...made.headers },
                };
              },
            },
          ],
        }
      : {}),
  });
  return {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    acknowledged: result["2xx"],
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

async function startBare(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(resolve(import.meta.dirname, "../node_modules/.bin/node"), [
    resolve(import.meta.dirname, "bare-server.ts"),
  ]);
  const address = await new Promise<string>((done, fail) => {
    child.stdout.once("data", (chunk: Buffer) => done(chunk.toString().trim()));
    child.once("exit", (code) => fail(new Error(`bare server exited ${code}`)));
  });
  return { url: `${address}/bare`, stop: () => child.kill("SIGTERM") };
}

const sign = (secret: string, body: string) => createHmac("sha256", secret).update(body).digest("hex");

/** Sums and counts of the gateway's batch histograms, per coalesced RPC, from its Prometheus endpoint. */
async function batchHistograms(metricsPort: number): Promise<Map<string, { sum: number; count: number }>> {
  const text = await fetch(`http://127.0.0.1:${metricsPort}/metrics`).then(
    (response) => response.text(),
    () => "",
  );
  const sums = new Map<string, { sum: number; count: number }>();
  for (const match of text.matchAll(
    /^pulsegate_gateway_batch_(size|duration_seconds)_(sum|count)\{[^}]*rpc="([^"]+)"[^}]*\} ([\d.e+-]+)/gm,
  )) {
    const [, metric, kind, rpcName, value] = match as unknown as [string, string, "sum" | "count", string, string];
    const rpc = metric === "size" ? `${rpcName} items` : `${rpcName} ms`;
    const entry = sums.get(rpc) ?? { sum: 0, count: 0 };
    entry[kind] = Number(value);
    sums.set(rpc, entry);
  }
  return sums;
}

/**
 * One stack, its scenarios, its results; with telemetry off, last, trigger latency before and after a million
 * stored alerts (its rows stay).
 */
async function suite(options: {
  label: string;
  telemetry: boolean;
  bareUrl?: string;
}): Promise<{ results: Result[]; atScale: TriggerAtScaleResult | null }> {
  const metricsPort = await freePort();
  const stack = await Stack.create({
    databaseName: `pulsegate_bench${options.telemetry ? "_otel" : ""}`,
    env: {
      OTEL_SDK_DISABLED: options.telemetry ? "false" : "true",
      OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
      OTEL_TRACES_SAMPLER_ARG: process.env.OTEL_TRACES_SAMPLER_ARG ?? "0.01",
      // The caches at their defaults (the test stack shortens them so tests see changes at once).
      WEBHOOK_CACHE_MS: "5000",
      VERIFIED_CACHE_MS: "3000",
      VERIFIER_CACHE_MS: "5000",
      NOTIFY_POLL_MS: "1000",
      LOG_LEVEL: "warn",
      ...(process.env.DB_POOL_MAX ? { DB_POOL_MAX: process.env.DB_POOL_MAX } : {}),
      ...(serviceNodeOptions() ? { NODE_OPTIONS: serviceNodeOptions() } : {}),
    },
    serviceEnv: (name) => (name === "gateway" && options.telemetry ? { METRICS_PORT: String(metricsPort) } : {}),
  });
  const db = new pg.Pool({ connectionString: stack.info.databaseUrl, max: 2 });
  const count = async (sql: string) => Number((await db.query<{ n: string }>(sql)).rows[0]?.n ?? 0);
  // The cluster's write-ahead log: nothing else writes to this PostgreSQL while a scenario runs.
  const walPosition = async () =>
    (await db.query<{ lsn: string }>("SELECT pg_current_wal_lsn()::text AS lsn")).rows[0]?.lsn;
  const walSince = async (lsn: string | undefined) =>
    Number(
      (await db.query<{ n: string }>("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1)::text AS n", [lsn])).rows[0]
        ?.n ?? 0,
    );
  const results: Result[] = [];
  let atScale: TriggerAtScaleResult | null = null;
  try {
    const client = new Client(stack.info);
    const run = async (name: string, scenario: () => Promise<Measured>, stored?: () => Promise<number>) => {
      if (!wanted(name)) return;
      // Autovacuum is off on these machines: each scenario starts from vacuumed tables, so runs do not drift.
      await db.query("VACUUM ANALYZE");
      const storedBefore = stored ? await stored() : 0;
      const walBefore = await walPosition();
      const cpuBefore = cpuByRole();
      const histogramsBefore = await batchHistograms(metricsPort);
      const measured = await scenario();
      const cpu = cpuPerRequest(cpuBefore, cpuByRole(), measured.acknowledged);
      const walWritten = await walSince(walBefore);
      const batches: Record<string, number> = {};
      for (const [rpc, after] of await batchHistograms(metricsPort)) {
        const earlier = histogramsBefore.get(rpc) ?? { sum: 0, count: 0 };
        const calls = after.count - earlier.count;
        const scale = rpc.endsWith(" ms") ? 1000 : 1;
        if (calls > 0) batches[rpc] = Math.round(((after.sum - earlier.sum) / calls) * scale * 10) / 10;
      }
      results.push({
        ...measured,
        name: `${measured.name}${options.label}`,
        cpu,
        walBytes: measured.acknowledged > 0 ? Math.round(walWritten / measured.acknowledged) : 0,
        batches,
        stored: stored ? (await stored()) - storedBefore : null,
      });
    };

    if (options.bareUrl) {
      const bareUrl = options.bareUrl;
      await run("bare Fastify route", () => load("bare Fastify route", bareUrl, "{}", {}));
    }

    // Folds: one group key, an open alert; the webhook's limit is far above what the run sends.
    const folder = await client.setup({ alertQuotaMonthly: 0 }, { rateLimitPerMinute: 100_000 });
    const foldBody = JSON.stringify({
      title: "Checkout error rate above 5%",
      severity: "sev2",
      group_key: "bench",
      metadata: { env: "production", region: "eu-west-1", padding: "x".repeat(800) },
    });
    const foldUrl = `${stack.info.baseUrl}/api/alerts/trigger/${folder.webhookUrl}`;
    const foldHeaders = { "x-webhook-signature": sign(folder.secret, foldBody) };
    if (wanted("signed trigger (fold)") || wanted("signed trigger (create)")) {
      // JIT, pools and caches, on a webhook of its own (its rate limit window is not the measured one's).
      const warmer = await client.setup({ alertQuotaMonthly: 0 }, { rateLimitPerMinute: 100_000 });
      const warmUrl = `${stack.info.baseUrl}/api/alerts/trigger/${warmer.webhookUrl}`;
      await load("warm-up", warmUrl, foldBody, { "x-webhook-signature": sign(warmer.secret, foldBody) });
    }
    await run(
      "signed trigger (fold)",
      () => load("signed trigger (fold)", foldUrl, foldBody, foldHeaders),
      () => count("SELECT count(*) AS n FROM alerts.occurrences"),
    );

    // Creates: distinct group keys, so every trigger creates an alert (quota, outbox, notification).
    const creator = await client.setup({ alertQuotaMonthly: 0 }, { rateLimitPerMinute: 100_000 });
    let serial = 0;
    const createTrigger = (): Request => {
      const unique = JSON.stringify({
        title: "Distinct failure",
        group_key: `bench-${++serial}`,
        metadata: { n: serial },
      });
      return {
        path: `/api/alerts/trigger/${creator.webhookUrl}`,
        body: unique,
        headers: { "x-webhook-signature": sign(creator.secret, unique) },
      };
    };
    await run(
      "signed trigger (create)",
      () => load("signed trigger (create)", foldUrl, "", {}, createTrigger),
      () => count("SELECT count(*) AS n FROM alerts.alerts"),
    );

    if (wanted("signed ping (up)")) {
      // Many monitors of one team, written straight into the database (the admin API would take minutes).
      const { teamId, secret } = await client.createTeam({ heartbeatQuotaMonthly: 0 });
      const pingUrls = Array.from({ length: MONITORS }, () => randomBytes(24).toString("base64url"));
      await db.query(
        `INSERT INTO monitors.monitors (id, team_id, ping_url, name, status, monitoring_active, interval_seconds,
                                        grace_seconds, severity, reopen_window_seconds, created_at, updated_at)
         SELECT 'mon_bench_' || n, $1, url, 'bench ' || n, 'idle', false, 3600, 600, 'sev2', 3600, now(), now()
           FROM unnest($2::text[]) WITH ORDINALITY AS u(url, n)`,
        [teamId, pingUrls],
      );
      const upSignature = sign(secret, "");
      let pingIndex = 0;
      const nextPing = (): Request => ({
        path: `/api/ping/${pingUrls[pingIndex++ % pingUrls.length]}`,
        body: "",
        headers: { "x-webhook-signature": upSignature },
      });
      const warm = await autocannon({
        url: foldUrl,
        method: "POST",
        connections: CONNECTIONS,
        amount: MONITORS,
        requests: [{ setupRequest: (request: autocannon.Request) => ({ ...request, ...nextPing() }) }],
      });
      if (warm.non2xx > 0) throw new Error(`ping warm-up: ${warm.non2xx} non-2xx answers`);
      await run(
        "signed ping (up)",
        () => load("signed ping (up)", foldUrl, "", {}, nextPing),
        () => count("SELECT count(*) AS n FROM monitors.pings"),
      );
    }

    if (!options.telemetry && wanted("trigger at scale")) {
      atScale = await triggerAtScale({
        databaseUrl: stack.info.databaseUrl,
        baseUrl: stack.info.baseUrl,
        secret: creator.secret,
        webhookUrl: creator.webhookUrl,
        ...(process.env.BENCH_SCALE_ALERTS ? { alerts: Number(process.env.BENCH_SCALE_ALERTS) } : {}),
      });
    }
  } finally {
    await db.end();
    await stack.stopAll();
  }
  return { results, atScale };
}

const bare = await startBare();
let results: Result[];
let atScale: TriggerAtScaleResult | null;
try {
  const plain = await suite({ label: "", telemetry: false, bareUrl: bare.url });
  atScale = plain.atScale;
  results = [
    ...plain.results,
    ...(process.env.BENCH_TELEMETRY === "0" ? [] : (await suite({ label: ", telemetry on", telemetry: true })).results),
  ];
} finally {
  bare.stop();
}

console.log(`(each scenario ran ${DURATION} s, ${CONNECTIONS} connections, after VACUUM ANALYZE)`);
console.table(
  results.map(({ cpu: _cpu, batches: _batches, walBytes: _walBytes, ...r }) => ({
    ...r,
    rps: Math.round(r.rps),
    stored: r.stored ?? "—",
  })),
);
console.log(
  "CPU µs per answered request, by process (the bare route's server is not counted), and PostgreSQL's WAL bytes per answered request:",
);
console.table(Object.fromEntries(results.map((r) => [r.name, { ...r.cpu, "WAL bytes": r.walBytes }])));
console.log("Coalesced calls: mean items per call and mean ms per call (the gateway's batch histograms):");
console.table(
  Object.fromEntries(results.filter((r) => Object.keys(r.batches).length > 0).map((r) => [r.name, r.batches])),
);

let failed = false;
if (wanted("sweep")) {
  // The sweep's cost follows the overdue monitors, not the healthy ones.
  const sweeps = await sweeperAtScale();
  console.log("Missed-heartbeat sweep, same 50 overdue monitors each time (its own database, vacuumed):");
  console.table(sweeps);
  const [small, large] = sweeps;
  if (small && large && (large.msPerSweep > small.msPerSweep * 3 + 5 || !large.usesDueIndex)) {
    console.log(
      `sweep at ${large.healthy} healthy monitors: ${large.msPerSweep} ms  FAILED: grows with healthy monitors`,
    );
    failed = true;
  }
}

if (atScale) {
  const { before, after } = atScale;
  console.log(
    `Triggers one at a time, ${before.storedAlerts.toLocaleString("en")} then ${after.storedAlerts.toLocaleString("en")} alerts stored:`,
  );
  console.table({
    "create p50 ms": { before: before.create.p50, after: after.create.p50 },
    "create p99 ms": { before: before.create.p99, after: after.create.p99 },
    "fold p50 ms": { before: before.fold.p50, after: after.fold.p50 },
    "fold p99 ms": { before: before.fold.p99, after: after.fold.p99 },
    "creates/s (burst)": { before: Math.round(before.createBurst.rps), after: Math.round(after.createBurst.rps) },
    "folds/s (burst)": { before: Math.round(before.foldBurst.rps), after: Math.round(after.foldBurst.rps) },
  });
  const unexpected =
    before.create.unexpected + before.fold.unexpected + after.create.unexpected + after.fold.unexpected;
  const burstFailures =
    before.createBurst.non2xx + before.foldBurst.non2xx + after.createBurst.non2xx + after.foldBurst.non2xx;
  // Flat: the p50 of a create or fold at a million alerts within twice its value on a nearly empty table (plus
  // a millisecond of noise), and every look-up through an index.
  const grew = (a: number, b: number) => b > a * 2 + 1;
  const problems = [
    unexpected || burstFailures ? `${unexpected} unexpected answers, ${burstFailures} non-2xx in bursts` : "",
    atScale.plans.unbounded.length ? `unbounded scans: ${atScale.plans.unbounded.join("; ")}` : "",
    grew(before.create.p50, after.create.p50) || grew(before.fold.p50, after.fold.p50)
      ? "trigger latency grows with stored alerts"
      : "",
  ].filter(Boolean);
  console.log(
    `trigger at scale: ${atScale.seconds} s in all${problems.length ? `  FAILED: ${problems.join("; ")}` : ", flat"}`,
  );
  if (problems.length) process.exitCode = 1;
}

const baseline = results.find((r) => r.name === "bare Fastify route");
for (const result of results) {
  const target = TARGETS[result.name];
  const ratio = baseline ? result.rps / baseline.rps : Number.NaN;
  const problems = [
    result.non2xx > 0 || result.errors > 0 ? `${result.non2xx} non-2xx, ${result.errors} errors` : "",
    // Requests still in flight when the load stops are stored but never counted as answered: at most one
    // per connection.
    result.stored !== null && (result.stored < result.acknowledged || result.stored > result.acknowledged + CONNECTIONS)
      ? `${result.stored} stored for ${result.acknowledged} acknowledged`
      : "",
    target && baseline && ratio < target.minRatio ? `ratio under its floor ${target.minRatio}` : "",
  ].filter(Boolean);
  if (result.name === "bare Fastify route") continue;
  const goal = target ? `target ${target.rps} req/s${target.p99Ms ? `, p99 < ${target.p99Ms} ms` : ""}` : "";
  const met = target ? result.rps >= target.rps && (!target.p99Ms || result.p99 < target.p99Ms) : true;
  console.log(
    `${result.name}: ${Math.round(result.rps)} req/s, p99 ${result.p99} ms` +
      (baseline ? `, ${ratio.toFixed(3)} of the bare route` : "") +
      (goal ? ` (${goal}: ${met ? "met" : "NOT met"})` : "") +
      (problems.length ? `  FAILED: ${problems.join("; ")}` : ""),
  );
  failed ||= problems.length > 0;
}
if (failed) process.exitCode = 1;
