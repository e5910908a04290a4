// `npm run bench`: throughput of the signed trigger path against a bare Fastify
// route, measured in one run on this machine, reported as a ratio (DESIGN §10).
// Targets 127.0.0.1 only; every load stops by itself after DURATION seconds.
import { spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import { resolve } from "node:path";
import autocannon from "autocannon";
import { Client } from "../test/support/client.ts";
import { Stack } from "../test/support/stack.ts";

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
// Regression floors: the share of a bare route's throughput each signed path
// keeps (DESIGN §10), set under what this 2-core machine measured with the
// load generator on the same cores (docs/performance.md). A fold of a batch
// is one statement; a create or a ping is about ten statements today.
const MIN_RATIO: Record<string, number> = {
  "signed trigger (fold)": Number(process.env.BENCH_MIN_RATIO_FOLD ?? 0.08),
  "signed trigger (create)": Number(process.env.BENCH_MIN_RATIO_CREATE ?? 0.012),
  "signed ping (up)": Number(process.env.BENCH_MIN_RATIO_PING ?? 0.012),
};
// Enough monitors that no ping URL sees more than 10 pings a minute at the measured rate.
const MONITORS = Number(process.env.BENCH_MONITORS ?? 2_000);

type Result = { name: string; rps: number; p99: number; non2xx: number; errors: number };
type Request = { path: string; body: string; headers: Record<string, string> };

/** Loads `url`, or with `next` a new request each time (own path, body and signature). */
async function load(
  name: string,
  url: string,
  body: string,
  headers: Record<string, string>,
  next?: () => Request,
): Promise<Result> {
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
    p99: result.latency.p99,
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

const body = JSON.stringify({
  title: "Checkout error rate above 5%",
  severity: "sev2",
  group_key: "bench",
  metadata: { env: "production", region: "eu-west-1", padding: "x".repeat(800) },
});

const stack = await Stack.create({
  databaseName: "pulsegate_bench",
  env: { LOG_LEVEL: "warn", ...(process.env.DB_POOL_MAX ? { DB_POOL_MAX: process.env.DB_POOL_MAX } : {}) },
});
const bare = await startBare();
try {
  const client = new Client(stack.info);
  const { secret, webhookUrl } = await client.setup({ alertQuotaMonthly: 0 }, { rateLimitPerMinute: 100_000 });
  const signature = createHmac("sha256", secret).update(body).digest("hex");
  const trigger = `${stack.info.baseUrl}/api/alerts/trigger/${webhookUrl}`;
  // Warm-up: JIT, pools, caches.
  await load("warm-up", trigger, body, { "x-webhook-signature": signature });

  // Distinct group keys: every trigger creates an alert (quota, outbox, notification).
  let serial = 0;
  const createTrigger = (): Request => {
    const unique = JSON.stringify({
      title: "Distinct failure",
      group_key: `bench-${++serial}`,
      metadata: { n: serial },
    });
    return {
      path: `/api/alerts/trigger/${webhookUrl}`,
      body: unique,
      headers: { "x-webhook-signature": createHmac("sha256", secret).update(unique).digest("hex") },
    };
  };

  // Pings: 10 a minute per ping URL (spec), so the load rotates over many monitors.
  const { teamId } = await client.createTeam({ heartbeatQuotaMonthly: 0 });
  const pingSecret = (await client.admin("POST", `/teams/${teamId}/webhook-secret/rotate`, { graceSeconds: 0 })).body
    .webhookSecret as string;
  const pingUrls: string[] = [];
  for (let i = 0; i < MONITORS; i++)
    pingUrls.push((await client.createMonitor(teamId, { name: `bench ${i}` })).pingUrl);
  const upSignature = createHmac("sha256", pingSecret).update("").digest("hex");
  let pingIndex = 0;
  const nextPing = (): Request => ({
    path: `/api/ping/${pingUrls[pingIndex++ % pingUrls.length]}`,
    body: "",
    headers: { "x-webhook-signature": upSignature },
  });

  const results = [
    await load("bare Fastify route", bare.url, body, {}),
    await load("signed trigger (fold)", trigger, body, { "x-webhook-signature": signature }),
    await load("signed trigger (create)", trigger, body, {}, createTrigger),
    await load("signed ping (up)", trigger, "", {}, nextPing),
  ];
  console.table(results.map((r) => ({ ...r, rps: Math.round(r.rps) })));
  const [baseline, ...measured] = results as [Result, ...Result[]];
  let failed = false;
  for (const result of measured) {
    const ratio = result.rps / baseline.rps;
    const floor = MIN_RATIO[result.name] ?? 0;
    const ok = result.non2xx === 0 && result.errors === 0 && ratio >= floor;
    console.log(`${result.name} / bare = ${ratio.toFixed(3)} (floor ${floor})${ok ? "" : "  FAILED"}`);
    failed ||= !ok;
  }
  process.exitCode = failed ? 1 : 0;
} finally {
  bare.stop();
  await stack.stopAll();
}
