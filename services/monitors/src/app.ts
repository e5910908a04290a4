import { createPgPool, type OpenServiceDatabaseOptions, openServiceDatabase, splitPoolBudget } from "@pulsegate/db";
import { connectClient, type ServiceBinding } from "@pulsegate/grpc";
import { alerts } from "@pulsegate/proto";
import { type Periodic, type PeriodicOptions, periodic } from "@pulsegate/runtime/lifecycle";
import type { Logger } from "@pulsegate/runtime/logger";
import { connectRedis } from "@pulsegate/runtime/redis";
import { inBackgroundSpan } from "@pulsegate/telemetry";
import type { MonitorsConfig } from "./config.ts";
import { purgeDeleted } from "./deletion/purge-deleted.ts";
import { alertsOverGrpc } from "./grpc/alerts-client.ts";
import { monitorsServiceBinding } from "./grpc/monitors-server.ts";
import { IncidentWorker } from "./incidents/incident-worker.ts";
import { missedHeartbeats, sweepCompleted, sweeps } from "./metrics/monitors-metrics.ts";
import { observeMonitors } from "./metrics/observe-monitors.ts";
import { migrations } from "./migrations/index.ts";
import { LastKnownMonitors } from "./monitors/last-known-monitors.ts";
import { MonitorService } from "./monitors/monitor-service.ts";
import { PingRecorder } from "./pings/record-pings.ts";
import { monitorRetention } from "./retention/monitor-retention.ts";
import { drainSpool } from "./spool/drain-spool.ts";
import { PingSpool } from "./spool/ping-spool.ts";
import { describeSpool, durabilityWarning } from "./spool/spool-durability.ts";
import { sweepMissedHeartbeats } from "./sweeper/sweep-missed-heartbeats.ts";

export const MONITORS_SCHEMA = "monitors";

/**
 * Opens the monitors schema and applies its pending migrations (also used by scripts/migrate.ts),
 * or with `migrate: false` (MIGRATE_ON_START=false) waits until the migrate Job has applied them.
 */
export async function openMonitorsDatabase(
  config: MonitorsConfig,
  log: Logger,
  options: OpenServiceDatabaseOptions = {},
) {
  return openServiceDatabase(
    {
      url: config.databaseUrl,
      schema: MONITORS_SCHEMA,
      entities: [],
      migrations,
      poolMax: splitPoolBudget(config.DB_POOL_MAX).orm,
    },
    log,
    options,
  );
}

/**
 * Builds the monitors service, un-started: main.ts (or a test) serves `grpcServices`, then
 * calls `startWorkers` (incident outbox, spool drain, sweeper, retention) and `close`.
 */
export async function buildMonitorsService(config: MonitorsConfig, log: Logger) {
  const orm = await openMonitorsDatabase(config, log, { migrate: config.MIGRATE_ON_START });
  // The ping path's own pool: plain pg, prepared statements, one transaction per batch. Connecting and
  // each statement are bounded by DB_ATTEMPT_TIMEOUT_MS (past it the database counts as away and pings
  // are spooled); waiting for a free connection is load, not an outage.
  const pool = createPgPool({
    url: config.databaseUrl,
    max: splitPoolBudget(config.DB_POOL_MAX).hotPath,
    connectTimeoutMs: config.DB_ATTEMPT_TIMEOUT_MS,
    queryTimeoutMs: config.DB_ATTEMPT_TIMEOUT_MS,
    // The batch statements' plans do not depend on their values: planning them once per connection, not
    // per execution, halved what the lock statement costs PostgreSQL (docs/performance.md).
    settings: { plan_cache_mode: "force_generic_plan" },
  });

  const redis = config.REDIS_URL ? connectRedis(config.REDIS_URL, log) : null;
  if (!redis) log.warn("REDIS_URL not set: no ping spool, so pings are refused (503) while the database is away");
  const spool = new PingSpool(redis, config.databaseUrl);
  const alertsClient = connectClient(alerts.AlertsServiceClient, config.ALERTS_GRPC_ADDR, {
    deadlineMs: config.GRPC_TIMEOUT_MS,
  });
  const lastKnown = new LastKnownMonitors();
  const incidents = new IncidentWorker(orm, alertsOverGrpc(alertsClient), log);

  let incidentLoop: Periodic | undefined;
  const kickIncidents = () => incidentLoop?.kick();
  const recorder = new PingRecorder({
    pool,
    spool,
    lastKnown,
    log,
    onIncident: (actionId) => incidents.runNow(actionId, config.INCIDENT_INLINE_WAIT_MS),
  });
  let purgeLoop: Periodic | undefined;
  const monitorService = new MonitorService(orm, pool, lastKnown, { onDeleted: () => purgeLoop?.kick() });
  const spoolStatus = () => describeSpool(spool, recorder.spooling, config.REDIS_DURABILITY);
  if (spool.configured && config.REDIS_DURABILITY !== "probe") {
    log.info(
      { durability: config.REDIS_DURABILITY },
      "ping spool durability stated by REDIS_DURABILITY, not probed: Redis's persistence settings are not asked",
    );
  }
  const grpcServices: ServiceBinding[] = [monitorsServiceBinding(log, monitorService, recorder, spoolStatus)];

  /** Says (once per change) whether spooled pings would survive a Redis restart: on connect and every minute. */
  let lastWarning: string | null | undefined;
  const checkDurability = async () => {
    const status = await spoolStatus();
    const warning = durabilityWarning(status);
    if (warning === lastWarning) return false;
    lastWarning = warning;
    if (warning) log.warn({ appendonly: status.appendonly, appendfsync: status.appendfsync }, warning);
    else if (status.durability === "durable")
      log.info("ping spool is durable: Redis runs with appendonly yes, appendfsync always");
    return false;
  };
  redis?.on("ready", () => void checkDurability());

  /** Pings in the spool are pings the sweeper cannot see yet: no sweeping until they are applied. */
  const spoolHoldsPings = async () => {
    if (recorder.spooling) return true;
    if (!spool.configured) return false;
    return spool.length().then(
      (length) => length > 0,
      () => false,
    );
  };

  const loops: Periodic[] = [];
  const start = (loop: Periodic) => {
    loop.start();
    loops.push(loop);
    return loop;
  };
  const every = (name: string, intervalMs: number, task: PeriodicOptions["task"]) =>
    start(periodic({ name, intervalMs, task, log }));
  const startWorkers = () => {
    observeMonitors(orm, spool, log);
    incidentLoop = every("incident outbox", config.INCIDENT_POLL_MS, () => incidents.runOnce());
    every("spool drain", config.SPOOL_DRAIN_INTERVAL_MS, () =>
      drainSpool({ pool, spool, recorder, lastKnown, log, onIncident: kickIncidents }),
    );
    every("missed-heartbeat sweep", config.SWEEP_INTERVAL_MS, async () => {
      if (await spoolHoldsPings()) {
        sweeps.add(1, { result: "held" });
        return false;
      }
      const started = Date.now();
      let swept: Awaited<ReturnType<typeof sweepMissedHeartbeats>>;
      try {
        swept = await sweepMissedHeartbeats(orm);
      } catch (error) {
        sweeps.add(1, { result: "error" });
        throw error;
      }
      sweeps.add(1, { result: "ok" });
      sweepCompleted();
      const { down, full } = swept;
      if (down.length > 0) {
        missedHeartbeats.add(down.length);
        // A sweep that took monitors down is work: a trace of its own (covering the sweep), for its log line.
        await inBackgroundSpan(
          "missed-heartbeat sweep",
          { startTime: started, attributes: { "pulsegate.monitors.down": down.length } },
          async () => {
            log.info({ monitorIds: down.map((monitor) => monitor.id) }, "missed heartbeat: monitors down");
            kickIncidents();
          },
        );
      }
      return full;
    });
    if (spool.configured) every("spool durability check", 60_000, checkDurability);
    // Deleted monitors and teams: their rows go in bounded batches, started at once by a delete.
    purgeLoop = every("deletion purge", config.PURGE_INTERVAL_MS, async (signal) => {
      const result = await purgeDeleted(orm, { signal });
      const { skipped, more, ...removed } = result;
      if (!skipped && Object.values(removed).some((count) => count > 0)) log.info(removed, "deleted monitors purged");
      return more;
    });
    start(
      monitorRetention(orm, log, {
        pingRetentionDays: config.PING_RETENTION_DAYS,
        incidentActionRetentionDays: config.INCIDENT_ACTION_RETENTION_DAYS,
        intervalMs: config.RETENTION_INTERVAL_MS,
      }),
    );
  };

  return {
    grpcServices,
    orm,
    startWorkers,
    /** Workers first (they use the database and alerts), then clients and pools. */
    stopWorkers: async () => {
      await Promise.all(loops.map((loop) => loop.stop()));
    },
    close: async () => {
      alertsClient.close();
      await redis?.quit().catch(() => redis.disconnect());
      await pool.end();
      await orm.close();
    },
  };
}
