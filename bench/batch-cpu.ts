// The two write paths alone, CPU per batch: applyPingBatch (monitors: 25 pings a batch, over 30,000
// monitors) and foldTriggers (alerts: 11 new alerts a batch, the bench's create load's mean), called in
// this process one batch at a time, on databases of their own, vacuumed before each run. No gRPC, no
// other process competing: the steadier instrument for a change too small for `npm run bench` to
// resolve (docs/performance.md, "Issue 25, third session"). Compare trees by running it in each,
// alternately.
//
//   npx node -C @pulsegate/source bench/batch-cpu.ts [batches per run, default 1000]
import { randomUUIDv7 } from "node:crypto";
import { createPgPool, type PgPool } from "@pulsegate/db";
import { createLogger } from "@pulsegate/runtime/logger";
import pg from "pg";
import { foldTriggers } from "../services/alerts/src/alerts/fold-triggers.ts";
import type { FoldInput } from "../services/alerts/src/alerts/plan-batch.ts";
import { openAlertsDatabase, openTriggerPool } from "../services/alerts/src/app.ts";
import { loadAlertsConfig } from "../services/alerts/src/config.ts";
import { openMonitorsDatabase } from "../services/monitors/src/app.ts";
import { loadMonitorsConfig } from "../services/monitors/src/config.ts";
import { applyPingBatch } from "../services/monitors/src/pings/apply-ping-batch.ts";
import { aPingItem } from "../services/monitors/src/testing/ping-item.ts";
import { dropDatabase, recreateDatabase, TEST_DATABASE_SERVER } from "../test/support/database.ts";

const BATCHES = Number(process.argv[2] ?? 1_000);
const RUNS = 3;
const WARM_UP = 100;
const MONITORS = 30_000;
const PINGS_PER_BATCH = 25;
const ALERTS_PER_BATCH = 11;
const log = createLogger("bench", "silent");

type Run = { userUs: number; systemUs: number; wallUs: number; perItemUs: number };

/** CPU and wall time per batch of `batches` calls of `batch`, one after the other. */
async function measure(batches: number, items: number, batch: () => Promise<unknown>): Promise<Run> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < batches; i++) await batch();
  const used = process.cpuUsage(cpu);
  const round = (value: number) => Math.round(value * 10) / 10;
  return {
    userUs: round(used.user / batches),
    systemUs: round(used.system / batches),
    wallUs: round(((performance.now() - started) * 1000) / batches),
    perItemUs: round((used.user + used.system) / batches / items),
  };
}

async function vacuum(url: string, tables: string): Promise<void> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    await db.query(`VACUUM ANALYZE ${tables}`);
  } finally {
    await db.end();
  }
}

async function pings(): Promise<Run[]> {
  const name = "pulsegate_bench_batch_pings";
  const url = `${TEST_DATABASE_SERVER}/${name}`;
  await recreateDatabase(name);
  const config = loadMonitorsConfig({ DATABASE_URL: url, DB_POOL_MAX: "4" });
  const orm = await openMonitorsDatabase(config, log);
  // As the service's ping pool (services/monitors/src/app.ts).
  const pool = createPgPool({ url, max: 2, settings: { plan_cache_mode: "force_generic_plan" } });
  try {
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    await db.query(
      `INSERT INTO monitors.monitors (id, team_id, ping_url, name, status, monitoring_active, interval_seconds,
                                      grace_seconds, severity, reopen_window_seconds, created_at, updated_at)
       SELECT 'mon_batch_' || n, 'team_batch', 'batch_' || n, 'batch ' || n, 'up', true, 300, 60, 'sev2', 3600,
              now(), now()
         FROM generate_series(1, $1::int) AS n`,
      [MONITORS],
    );
    await db.end();
    let next = 0;
    const batch = () =>
      applyPingBatch(
        pool,
        Array.from({ length: PINGS_PER_BATCH }, () =>
          // Keys time-ordered, as the service makes them (record-pings.ts).
          aPingItem({ id: `mon_batch_${(next++ % MONITORS) + 1}`, teamId: "team_batch" }, { pingId: randomUUIDv7() }),
        ),
        { spooled: false, now: new Date() },
      );
    // As in the bench's ping load: every monitor pinged once before (its first ping moves it from new to up).
    for (let i = 0; i < MONITORS / PINGS_PER_BATCH; i++) await batch();
    return await runs(url, "monitors.monitors, monitors.pings, monitors.due_checks", PINGS_PER_BATCH, batch);
  } finally {
    await pool.end();
    await orm.close();
    await dropDatabase(name);
  }
}

async function newAlerts(): Promise<Run[]> {
  const name = "pulsegate_bench_batch_alerts";
  const url = `${TEST_DATABASE_SERVER}/${name}`;
  await recreateDatabase(name);
  const config = loadAlertsConfig({ DATABASE_URL: url, DB_POOL_MAX: "4" });
  const orm = await openAlertsDatabase(config, log);
  const pool: PgPool = openTriggerPool(config);
  try {
    let serial = 0;
    // The bench's create load: a distinct group key each time, small metadata, no quota.
    const trigger = (): FoldInput => {
      serial++;
      return {
        teamId: "team_batch",
        source: "webhook",
        sourceId: "wh_batch",
        title: "Distinct failure",
        description: "",
        severity: "sev2",
        metadataJson: JSON.stringify({ n: serial }),
        metadata: { n: serial },
        groupKey: `batch-${serial}`,
        reopenWindowSeconds: 3_600,
        alertQuotaMonthly: 0,
        receivedAt: new Date(),
      };
    };
    const batch = () => foldTriggers(pool, Array.from({ length: ALERTS_PER_BATCH }, trigger));
    return await runs(
      url,
      "alerts.alerts, alerts.occurrences, alerts.outbox, alerts.outbox_pending, alerts.alert_quota_usage",
      ALERTS_PER_BATCH,
      batch,
    );
  } finally {
    await pool.end();
    await orm.close();
    await dropDatabase(name);
  }
}

async function runs(url: string, tables: string, items: number, batch: () => Promise<unknown>): Promise<Run[]> {
  const results: Run[] = [];
  for (let run = 0; run < RUNS; run++) {
    await vacuum(url, tables);
    for (let i = 0; i < WARM_UP; i++) await batch();
    results.push(await measure(BATCHES, items, batch));
  }
  return results;
}

console.log(`${BATCHES} batches per run, ${RUNS} runs, each after VACUUM ANALYZE and ${WARM_UP} batches of warm-up`);
console.log(`applyPingBatch, ${PINGS_PER_BATCH} pings a batch over ${MONITORS.toLocaleString("en")} monitors:`);
console.table(await pings());
console.log(`foldTriggers, ${ALERTS_PER_BATCH} new alerts a batch:`);
console.table(await newAlerts());
