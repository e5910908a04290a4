// The missed-heartbeat sweep at scale: its cost must not grow with the healthy monitors, only with
// the overdue ones. Measured on a database of its own with 1,000 and then 100,000 healthy monitors, the same
// few overdue each time.
import { createLogger } from "@pulsegate/runtime/logger";
import pg from "pg";
import { openMonitorsDatabase } from "../services/monitors/src/app.ts";
import { loadMonitorsConfig } from "../services/monitors/src/config.ts";
import { SELECT_DUE_MONITORS } from "../services/monitors/src/sweeper/mark-due-monitors-down.ts";
import { sweepMissedHeartbeats } from "../services/monitors/src/sweeper/sweep-missed-heartbeats.ts";
import { dropDatabase, recreateDatabase, TEST_DATABASE_SERVER } from "../test/support/database.ts";

export type SweepMeasurement = { healthy: number; overdue: number; msPerSweep: number; usesDueIndex: boolean };

const OVERDUE = 50;
const SWEEPS = 20;

export async function sweeperAtScale(sizes: number[] = [1_000, 100_000]): Promise<SweepMeasurement[]> {
  const databaseName = "pulsegate_bench_sweeper";
  const url = `${TEST_DATABASE_SERVER}/${databaseName}`;
  await recreateDatabase(databaseName);
  const orm = await openMonitorsDatabase(
    loadMonitorsConfig({ DATABASE_URL: url, DB_POOL_MAX: "2" }),
    createLogger("bench", "silent"),
  );
  const db = new pg.Pool({ connectionString: url, max: 1 });
  const measurements: SweepMeasurement[] = [];
  try {
    let inserted = 0;
    for (const healthy of sizes) {
      // Healthy monitors: up, next due in an hour (their checks are queued an hour on, the sweep must not read them).
      await db.query(
        `INSERT INTO monitors.monitors (id, team_id, ping_url, name, status, monitoring_active, interval_seconds,
                                        grace_seconds, severity, reopen_window_seconds, last_ping_at, next_due_at,
                                        created_at, updated_at)
         SELECT 'mon_healthy_' || n, 'team_bench', 'healthy_' || n, 'healthy ' || n, 'up', true, 3600, 60, 'sev2', 3600,
                now(), now() + interval '1 hour', now(), now()
           FROM generate_series($1::int + 1, $2::int) AS n`,
        [inserted, healthy],
      );
      inserted = healthy;
      await db.query("VACUUM ANALYZE monitors.monitors, monitors.due_checks");
      const plan = await db.query<{ "QUERY PLAN": string }>(`EXPLAIN ${SELECT_DUE_MONITORS.replace("?", "200")}`);
      const usesDueIndex = plan.rows.some((row) => row["QUERY PLAN"].includes("due_checks_check_at_idx"));
      let elapsed = 0;
      for (let sweep = 0; sweep < SWEEPS; sweep++) {
        // The same overdue monitors each time: due a minute ago.
        await db.query(
          `INSERT INTO monitors.monitors (id, team_id, ping_url, name, status, monitoring_active, interval_seconds,
                                          grace_seconds, severity, reopen_window_seconds, last_ping_at, next_due_at,
                                          created_at, updated_at)
           SELECT 'mon_late_' || $1::int || '_' || n, 'team_bench', 'late_' || $1::int || '_' || n, 'late ' || $1::int || '_' || n, 'up', true,
                  60, 0, 'sev2', 3600, now() - interval '2 minutes', now() - interval '1 minute', now(), now()
             FROM generate_series(1, $2::int) AS n`,
          [healthy * 100 + sweep, OVERDUE],
        );
        const started = performance.now();
        const { down } = await sweepMissedHeartbeats(orm);
        elapsed += performance.now() - started;
        if (down.length !== OVERDUE) throw new Error(`sweep found ${down.length} overdue monitors, not ${OVERDUE}`);
      }
      measurements.push({
        healthy,
        overdue: OVERDUE,
        msPerSweep: Math.round((elapsed / SWEEPS) * 100) / 100,
        usesDueIndex,
      });
    }
  } finally {
    await db.end();
    await orm.close();
    await dropDatabase(databaseName);
  }
  return measurements;
}
