import { checkDrainFitsShutdown, env, loadConfig } from "@pulsegate/runtime/config";
import { REDIS_DURABILITY_SETTINGS } from "./spool/spool-durability.ts";

export function loadMonitorsConfig(source: NodeJS.ProcessEnv = process.env) {
  const config = loadConfig(
    {
      NODE_ENV: env.nodeEnv(),
      LOG_LEVEL: env.logLevel(),
      GRPC_LISTEN_ADDR: env.listenAddress("[::]:50053"),
      GRPC_MAX_CONNECTION_AGE_MS: env.grpcMaxConnectionAgeMs(),
      // Shutdown (docs/operations.md, "Shutdown"): every step shares SHUTDOWN_TIMEOUT_MS; the first,
      // serving while callers are still connected, lasts at most GRPC_DRAIN_MS of it. 20 s fits
      // Kubernetes' 30 s grace period less the 5 s preStop delay, with 5 s to spare.
      SHUTDOWN_TIMEOUT_MS: env.shutdownTimeoutMs(20_000),
      GRPC_DRAIN_MS: env.grpcDrainMs(),
      ALERTS_GRPC_ADDR: env.grpcAddress("127.0.0.1:50052"),
      GRPC_TIMEOUT_MS: env.int(2_000, 1, 60_000),
      // false: change no schema at start, and wait (alive, not ready) until the migrate Job has
      // applied every migration this release knows (production; docs/operations.md, "Migrations").
      MIGRATE_ON_START: env.boolean(true),
      // Every pooled PostgreSQL connection of the process: half for the ping path's pool, the rest
      // for the ORM's (docs/operations.md, "PostgreSQL connections").
      DB_POOL_MAX: env.int(20, 2, 200),
      DATABASE_URL: env.string("postgres://postgres@127.0.0.1:5432/pulsegate"),
      MONITORS_DATABASE_URL: env.optionalString(),
      // The ping spool (a Redis stream). Empty: no spool, so a ping that finds the database away is answered 503.
      REDIS_URL: env.optionalString(),
      // How durable the spool's Redis is: "probe" asks it (CONFIG GET); a managed Redis that refuses
      // CONFIG is stated instead: durable (appendonly yes, appendfsync always), aof_not_fsynced, not_durable.
      REDIS_DURABILITY: env.choice(REDIS_DURABILITY_SETTINGS, "probe"),
      // How long a ping waits for the database before it is spooled instead; below the gateway's gRPC deadline.
      DB_ATTEMPT_TIMEOUT_MS: env.int(1_000, 50, 60_000),
      SWEEP_INTERVAL_MS: env.int(5_000, 50, 3_600_000),
      SPOOL_DRAIN_INTERVAL_MS: env.int(500, 50, 60_000),
      INCIDENT_POLL_MS: env.int(1_000, 50, 60_000),
      // How long a ping that raised or resolved an incident waits for alerts before it is answered anyway
      // (the outbox worker then finishes the send). Keep DB_ATTEMPT_TIMEOUT_MS + this under the gateway's deadline.
      INCIDENT_INLINE_WAIT_MS: env.int(750, 0, 60_000),
      // Retention: pings older than this go, except each monitor's newest 100; done incident actions too.
      PING_RETENTION_DAYS: env.int(90, 1, 36_500),
      INCIDENT_ACTION_RETENTION_DAYS: env.int(7, 1, 36_500),
      RETENTION_INTERVAL_MS: env.int(3_600_000, 1_000, 86_400_000),
      // Deleted monitors and teams are purged this often (and at once after a delete).
      PURGE_INTERVAL_MS: env.int(60_000, 100, 3_600_000),
    },
    source,
  );
  checkDrainFitsShutdown(config);
  return { ...config, databaseUrl: config.MONITORS_DATABASE_URL ?? config.DATABASE_URL };
}

export type MonitorsConfig = ReturnType<typeof loadMonitorsConfig>;
