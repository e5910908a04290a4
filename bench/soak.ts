// `npm run soak` (not in CI): mixed signed load at a fixed rate for SOAK_MINUTES (default 30) against the real
// services as processes, telemetry on as deployed, and every SOAK_SAMPLE_SECONDS (default 30) a reading of each
// process: resident memory, the live heap (in use after the latest full collection), metric series, open file
// descriptors, the event loop's p99 delay (its own Prometheus gauge), and the stack's PostgreSQL connections
// and Redis clients. At the end each series is fitted with a least-squares
// line after the warm-up (the first fifth of the run) and reported as a slope per hour: flat is the goal, and a
// series that grows past its bound is named and the run exits 1.
//
// The load, SOAK_RATE requests/s in all (default 500: a rate the 2-core development machine holds with telemetry
// on; at 1,000 a quiet 60-minute run answered only 619 a second, and an overloaded run measures its own queue): 40 % folds into open alerts, 10 % new alerts (each its own
// group key), 40 % pings over SOAK_MONITORS monitors (default 5,000, so none nears its 10-a-minute limit),
// 10 % admin reads (a page of alerts). Autovacuum is off on the development machines: the soak stands in for
// it with VACUUM ANALYZE every 5 minutes, and says so. Every reading is also written, one JSON line each, to
// SOAK_SAMPLES_FILE (default a new file in the temp folder, named in the output), with the rate answered and each
// process's CPU share since the previous reading. 127.0.0.1 only; it stops by itself.
import { createHmac, randomBytes } from "node:crypto";
import { appendFileSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { Redis } from "ioredis";
import pg from "pg";
import { Client } from "../test/support/client.ts";
import { sampleSum, scrape } from "../test/support/prometheus.ts";
import { type ServiceName, Stack } from "../test/support/stack.ts";
import { deployedRuntime } from "./deployed-runtime.ts";

const MINUTES = Number(process.env.SOAK_MINUTES ?? 30);
const RATE = Number(process.env.SOAK_RATE ?? 500);
const MONITORS = Number(process.env.SOAK_MONITORS ?? 5_000);
const SAMPLE_SECONDS = Number(process.env.SOAK_SAMPLE_SECONDS ?? 30);
const SAMPLES_FILE =
  process.env.SOAK_SAMPLES_FILE ?? join(tmpdir(), `pulsegate-soak-${new Date().toISOString()}.jsonl`);
/** Below this share of SOAK_RATE the machine did not keep up: the loop delays then measure a queue. */
const SUSTAINED_SHARE = 0.9;
const VACUUM_EVERY_MS = 5 * 60_000;
/** The first fifth of the run: caches fill, V8 sizes its heap; slopes are fitted after it. */
const WARMUP_S = (MINUTES * 60) / 5;
const SERVICES: ServiceName[] = ["gateway", "auth", "alerts", "monitors"];

/** What "flat" allows per hour, per series kind: beyond it the series is reported as growing. */
const BOUNDS_PER_HOUR = { rssMiB: 32, liveHeapMiB: 8, series: 20, fds: 10, loopP99Ms: 5, connections: 2 };

type Sample = { atS: number; values: Record<string, number> };

const sign = (secret: string, body: string) => createHmac("sha256", secret).update(body).digest("hex");

function residentMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) / 1024;
}

/** Each series' name and labels, without its value: what a new label value would add. */
function seriesOf(exposition: string): string[] {
  return exposition
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => line.slice(0, line.lastIndexOf(" ")));
}

/** CPU seconds a process has used (user + system), from /proc; Linux counts them in USER_HZ = 100 ticks. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  // utime and stime are fields 14 and 15 of stat(5); after the command's ")" they are the 12th and 13th.
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) / 100;
}

function openFds(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

/** Least-squares slope of y over x (x in seconds), per hour. */
function slopePerHour(points: { x: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((sum, p) => sum + p.x, 0) / n;
  const my = points.reduce((sum, p) => sum + p.y, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.x - mx) * (p.y - my);
    den += (p.x - mx) ** 2;
  }
  return den === 0 ? 0 : (num / den) * 3_600;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

/** The run in ten slices: whether a delay that grows follows the load or the clock. */
function byTenth(
  loads: { atS: number; reqPerS: number; cpuShare: Record<string, number> }[],
  samples: Sample[],
): Record<string, Record<string, number>> {
  const rows: Record<string, Record<string, number>> = {};
  const slice = (MINUTES * 60) / 10;
  for (let tenth = 0; tenth < 10; tenth++) {
    const inSlice = (atS: number) => atS >= tenth * slice && atS < (tenth + 1) * slice;
    const sliceLoads = loads.filter((load) => inSlice(load.atS));
    const sliceSamples = samples.filter((sample) => inSlice(sample.atS));
    const row: Record<string, number> = { "req/s": Math.round(median(sliceLoads.map((load) => load.reqPerS))) };
    // CPU per request is the load's own cost, whatever else the machine runs: a path that slows with time shows here.
    const perRequest = (load: (typeof loads)[number], services: readonly ServiceName[]) =>
      load.reqPerS > 0 ? (services.reduce((sum, name) => sum + (load.cpuShare[name] ?? 0), 0) / load.reqPerS) * 1e6 : 0;
    row["µs/req all"] = Math.round(median(sliceLoads.map((load) => perRequest(load, SERVICES))));
    for (const service of SERVICES) {
      row[`${service} µs/req`] = Math.round(median(sliceLoads.map((load) => perRequest(load, [service]))));
      row[`${service} p99 ms`] = Math.round(median(sliceSamples.map((s) => s.values[`${service} loopP99Ms`] ?? 0)));
    }
    const minute = (seconds: number) => (seconds / 60).toFixed(slice < 60 ? 1 : 0);
    rows[`min ${minute(tenth * slice)}–${minute((tenth + 1) * slice)}`] = row;
  }
  return rows;
}

async function main(): Promise<void> {
  const deployed = deployedRuntime();
  process.stdout.write(
    deployed === undefined
      ? "kubectl not found: the services run with Node's own heap sizing, not the production overlay's\n"
      : `as the production overlay runs them: ${SERVICES.map((service) => {
          const runtime = deployed.get(service);
          return `${service} ${runtime?.nodeOptions ?? "(no NODE_OPTIONS)"}, limit ${runtime?.memoryLimitMiB ?? "none"} MiB`;
        }).join("; ")}\n`,
  );
  const stack = await Stack.create({
    databaseName: "pulsegate_soak",
    metrics: true,
    env: {
      LOG_LEVEL: "warn",
      OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
      OTEL_TRACES_SAMPLER_ARG: "0.01",
      // The caches at their defaults (the test stack shortens them).
      WEBHOOK_CACHE_MS: "5000",
      VERIFIED_CACHE_MS: "3000",
      VERIFIER_CACHE_MS: "5000",
      NOTIFY_POLL_MS: "1000",
    },
    // The heap the production overlay gives each container; SOAK_NODE_OPTIONS is added to it (e.g.
    // `--heapsnapshot-signal=SIGUSR2`, to take heap snapshots of a process during the run).
    serviceEnv: (service) => {
      const options = [deployed?.get(service)?.nodeOptions, process.env.SOAK_NODE_OPTIONS].filter(Boolean).join(" ");
      return options === "" ? {} : { NODE_OPTIONS: options };
    },
  });
  const db = new pg.Pool({ connectionString: stack.info.databaseUrl, max: 2 });
  const redis = new Redis(stack.info.redisUrl, { lazyConnect: true });
  await redis.connect();
  const databaseName = new URL(stack.info.databaseUrl).pathname.slice(1);
  try {
    const client = new Client(stack.info);
    const { teamId, secret } = await client.createTeam({ alertQuotaMonthly: 0, heartbeatQuotaMonthly: 0 });
    const webhook = await client.createWebhook(teamId, { rateLimitPerMinute: 100_000 });
    const pingUrls = Array.from({ length: MONITORS }, () => randomBytes(24).toString("base64url"));
    await db.query(
      `INSERT INTO monitors.monitors (id, team_id, ping_url, name, status, monitoring_active, interval_seconds,
                                      grace_seconds, severity, reopen_window_seconds, created_at, updated_at)
       SELECT 'mon_soak_' || n, $1, url, 'soak ' || n, 'idle', false, 3600, 600, 'sev2', 3600, now(), now()
         FROM unnest($2::text[]) WITH ORDINALITY AS u(url, n)`,
      [teamId, pingUrls],
    );
    await db.query("VACUUM ANALYZE");

    const triggerPath = `/api/alerts/trigger/${webhook.webhookUrl}`;
    const foldBody = JSON.stringify({ title: "Soak fold", group_key: "soak-fold", severity: "sev3" });
    const foldSignature = sign(secret, foldBody);
    const pingSignature = sign(secret, "");
    const adminPath = `/admin/v1/teams/${teamId}/alerts?limit=20`;
    let sent = 0;
    let created = 0;
    let pinged = 0;
    const next = (): { method: "GET" | "POST"; path: string; body: string; headers: Record<string, string> } => {
      const slot = sent++ % 10;
      if (slot < 4)
        return { method: "POST", path: triggerPath, body: foldBody, headers: { "x-webhook-signature": foldSignature } };
      if (slot === 4) {
        const body = JSON.stringify({ title: "Soak create", group_key: `soak-${created++}`, severity: "sev4" });
        return { method: "POST", path: triggerPath, body, headers: { "x-webhook-signature": sign(secret, body) } };
      }
      if (slot < 9) {
        return {
          method: "POST",
          path: `/api/ping/${pingUrls[pinged++ % pingUrls.length]}`,
          body: "",
          headers: { "x-webhook-signature": pingSignature },
        };
      }
      return {
        method: "GET",
        path: adminPath,
        body: "",
        headers: { authorization: `Bearer ${stack.info.adminToken}` },
      };
    };

    const samples: Sample[] = [];
    const startedAt = Date.now();
    // The series each process exported at the end of the warm-up, and those that appeared after it (by name and labels).
    const seriesAtWarmup = new Map<ServiceName, Set<string>>();
    const seriesAdded = new Set<string>();
    // Since the previous reading: requests the gateway answered, and CPU seconds per process.
    let previous: { atS: number; answered: number; cpu: Record<string, number> } | undefined;
    /** Per reading: the rate answered and each process's share of one core since the previous reading. */
    const loads: { atS: number; reqPerS: number; cpuShare: Record<string, number> }[] = [];
    process.stdout.write(`readings: ${SAMPLES_FILE}\n`);
    const read = async (): Promise<void> => {
      const atS = (Date.now() - startedAt) / 1000;
      const values: Record<string, number> = {};
      const cpu: Record<string, number> = {};
      let answered = 0;
      for (const service of SERVICES) {
        const pid = stack.pidOf(service);
        if (pid === undefined) throw new Error(`${service} is not running`);
        cpu[service] = cpuSeconds(pid);
        values[`${service} rssMiB`] = residentMiB(pid);
        values[`${service} fds`] = openFds(pid);
        const endpoint = stack.info.metrics?.[service];
        const port = Number(endpoint?.split(":")[1]);
        const metrics = await scrape(port);
        // The live heap (in use just after the latest full collection): V8 grows its heap lazily and keeps it,
        // and the heap in use between collections is mostly garbage, so neither RSS nor that tells a leak; this does.
        values[`${service} liveHeapMiB`] = sampleSum(metrics, "pulsegate_heap_live_bytes") / 2 ** 20;
        values[`${service} loopP99Ms`] = sampleSum(metrics, "nodejs_eventloop_delay_p99_seconds") * 1000;
        if (service === "gateway") answered = sampleSum(metrics, "http_server_request_duration_seconds_count");
        // Metric series exported: a label carrying an id would add series (and memory) for ever.
        const names = seriesOf(metrics);
        values[`${service} series`] = names.length;
        const baseline = seriesAtWarmup.get(service);
        if (atS < WARMUP_S || baseline === undefined) seriesAtWarmup.set(service, new Set(names));
        else for (const name of names) if (!baseline.has(name)) seriesAdded.add(`${service}: ${name}`);
      }
      const connections = await db.query<{ n: string }>(
        "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
        [databaseName],
      );
      values["postgres connections"] = Number(connections.rows[0]?.n ?? 0) - 1; // this soak's own second connection
      values["redis connections"] = Number(/connected_clients:(\d+)/.exec(await redis.info("clients"))?.[1] ?? 0);
      samples.push({ atS, values });
      const elapsed = previous === undefined ? 0 : atS - previous.atS;
      const load = {
        atS,
        reqPerS: elapsed > 0 && previous ? (answered - previous.answered) / elapsed : 0,
        cpuShare: Object.fromEntries(
          SERVICES.map((service) => [
            service,
            elapsed > 0 && previous ? ((cpu[service] ?? 0) - (previous.cpu[service] ?? 0)) / elapsed : 0,
          ]),
        ),
      };
      if (previous !== undefined) loads.push(load);
      previous = { atS, answered, cpu };
      appendFileSync(SAMPLES_FILE, `${JSON.stringify({ ...load, values })}\n`);
    };
    await read();
    process.stdout.write(`pids: ${SERVICES.map((service) => `${service} ${stack.pidOf(service)}`).join(", ")}\n`);
    const sampler = setInterval(
      () => void read().catch((error: unknown) => console.error("sample:", error)),
      SAMPLE_SECONDS * 1000,
    );
    const vacuum = setInterval(() => void db.query("VACUUM ANALYZE").catch(() => undefined), VACUUM_EVERY_MS);
    process.stdout.write(
      `soak: ${MINUTES} min at ${RATE} req/s (40 % folds, 10 % creates, 40 % pings over ${MONITORS} monitors, 10 % admin reads); ` +
        `a reading every ${SAMPLE_SECONDS} s; VACUUM ANALYZE every 5 min (autovacuum is off here)\n`,
    );

    const result = await autocannon({
      url: stack.info.baseUrl,
      connections: 20,
      overallRate: RATE,
      duration: MINUTES * 60,
      requests: [
        {
          setupRequest: (request: autocannon.Request) => {
            const made = next();
            return {
              ...request,
              method: made.method,
              path: made.path,
              headers: { ...request.headers, "content-type": "application/json", ...made.headers },
              ...(made.method === "POST" ? { body: made.body } : { body: undefined }),
            };
          },
        },
      ],
    });
    clearInterval(sampler);
    clearInterval(vacuum);
    await read();

    const kept = samples.filter((sample) => sample.atS >= WARMUP_S);
    // A run that could not hold its rate queued requests: its loop delays say how long the queue was, not whether a
    // process slows down with time, so they are shown but not judged (memory, handles and connections still are).
    const sustained = result.requests.average / RATE;
    const overloaded = sustained < SUSTAINED_SHARE;
    const rows: Record<string, { first: number; last: number; perHour: number; bound: number; verdict: string }> = {};
    let growing = 0;
    for (const series of Object.keys(samples[0]?.values ?? {})) {
      const kind = series.split(" ")[1] as keyof typeof BOUNDS_PER_HOUR;
      const bound = BOUNDS_PER_HOUR[kind] ?? BOUNDS_PER_HOUR.connections;
      const points = kept.map((sample) => ({ x: sample.atS, y: sample.values[series] ?? 0 }));
      const perHour = slopePerHour(points);
      const verdict = kind === "loopP99Ms" && overloaded ? "not judged" : perHour > bound ? "GROWS" : "flat";
      if (verdict === "GROWS") growing++;
      rows[series] = {
        first: Math.round((points[0]?.y ?? 0) * 10) / 10,
        last: Math.round((points.at(-1)?.y ?? 0) * 10) / 10,
        perHour: Math.round(perHour * 10) / 10,
        bound,
        verdict,
      };
    }
    process.stdout.write(
      `\nload: ${Math.round(result.requests.average)} req/s on average, p99 ${result.latency.p99} ms, ` +
        `${result["2xx"]} 2xx, ${result.non2xx} non-2xx, ${result.errors + result.timeouts} errors; by status: ` +
        `${Object.entries(result.statusCodeStats ?? {})
          .map(([code, stats]) => `${code} ${(stats as { count: number }).count}`)
          .join(", ")}\n` +
        `slopes over minutes ${Math.round(WARMUP_S / 60)}–${MINUTES} (${kept.length} readings), per hour:\n`,
    );
    console.table(rows);
    process.stdout.write(
      `by tenth of the run (medians of its readings): rate answered, CPU µs per request, loop p99:\n`,
    );
    console.table(byTenth(loads, samples));
    if (overloaded)
      process.stdout.write(
        `soak: the machine answered ${Math.round(result.requests.average)} of ${RATE} req/s (${Math.round(sustained * 100)} %): ` +
          `the loop delays measure a queue and are not judged; run again with a lower SOAK_RATE to judge them\n`,
      );
    for (const service of SERVICES) {
      const limit = deployed?.get(service)?.memoryLimitMiB;
      const peak = Math.max(...samples.map((sample) => sample.values[`${service} rssMiB`] ?? 0));
      const verdict =
        limit === undefined ? "" : peak < limit ? ` (under its ${limit} MiB limit)` : ` — OVER its ${limit} MiB limit`;
      process.stdout.write(`${service}: peak RSS ${Math.round(peak)} MiB${verdict}\n`);
      if (limit !== undefined && peak >= limit) process.exitCode = 1;
    }
    if (seriesAdded.size > 0)
      process.stdout.write(
        `series that appeared after the warm-up:\n${[...seriesAdded].map((name) => `  ${name}`).join("\n")}\n`,
      );
    if (result.non2xx > 0 || result.errors + result.timeouts > 0) {
      process.stdout.write("soak: some requests were not answered 2xx\n");
      process.exitCode = 1;
    }
    if (growing > 0) {
      process.stdout.write(`soak: ${growing} series grow beyond their bound\n`);
      process.exitCode = 1;
    }
  } finally {
    redis.disconnect();
    await db.end();
    await stack.destroy();
  }
}

await main();
