import { checkDrainFitsShutdown, env, loadConfig } from "@pulsegate/runtime/config";

export function loadAlertsConfig(source: NodeJS.ProcessEnv = process.env) {
  const config = loadConfig(
    {
      NODE_ENV: env.nodeEnv(),
      LOG_LEVEL: env.logLevel(),
      GRPC_LISTEN_ADDR: env.listenAddress("[::]:50052"),
      GRPC_MAX_CONNECTION_AGE_MS: env.grpcMaxConnectionAgeMs(),
      // Shutdown (docs/operations.md, "Shutdown"): every step shares SHUTDOWN_TIMEOUT_MS; the first,
      // serving while callers are still connected, lasts at most GRPC_DRAIN_MS of it. 20 s fits
      // Kubernetes' 30 s grace period less the 5 s preStop delay, with 5 s to spare.
      SHUTDOWN_TIMEOUT_MS: env.shutdownTimeoutMs(20_000),
      GRPC_DRAIN_MS: env.grpcDrainMs(),
      // auth's signing listener: alerts calls auth only to sign outbound notifications.
      AUTH_SIGNING_GRPC_ADDR: env.grpcAddress("127.0.0.1:50054"),
      // false: change no schema at start, and wait (alive, not ready) until the migrate Job has
      // applied every migration this release knows (production; docs/operations.md, "Migrations").
      MIGRATE_ON_START: env.boolean(true),
      // Every pooled PostgreSQL connection of the process: half for the trigger path's pool, the
      // rest for the ORM's (docs/operations.md, "PostgreSQL connections").
      DB_POOL_MAX: env.int(40, 2, 200),
      // Trigger batches read webhooks through a cache for this long (the gateway's variable too).
      WEBHOOK_CACHE_MS: env.int(5_000, 0, 60_000),
      DATABASE_URL: env.string("postgres://postgres@127.0.0.1:5432/pulsegate"),
      ALERTS_DATABASE_URL: env.optionalString(),
      // Notifications (docs/notifications.md). Private, loopback and link-local
      // destinations are refused unless this is true (tests, local use).
      NOTIFY_ALLOW_PRIVATE_NETWORKS: env.boolean(false),
      NOTIFY_MAX_ATTEMPTS: env.int(8, 1, 100),
      NOTIFY_ATTEMPT_TIMEOUT_MS: env.int(5_000, 100, 120_000),
      NOTIFY_POLL_MS: env.int(500, 10, 60_000),
      NOTIFY_BACKOFF_BASE_MS: env.int(10_000, 10, 3_600_000),
      NOTIFY_BACKOFF_MAX_MS: env.int(3_600_000, 10, 86_400_000),
      NOTIFY_CONCURRENCY: env.int(8, 1, 256),
      // Delivery policy: a channel whose deliveries have all failed for this long, and at least
      // this many of them, is disabled (a 410 Gone disables it at once).
      NOTIFY_DISABLE_AFTER_MS: env.int(86_400_000, 1, 30 * 86_400_000),
      NOTIFY_DISABLE_MIN_FAILURES: env.int(5, 1, 10_000),
      // Channel credentials are sealed under a key derived from the KEK (docs/secrets.md):
      // the same SECRET_KEK as auth, the newest first. Checked at start (parseKeyring).
      SECRET_KEK: env.optionalString(),
      SECRET_KEK_PREVIOUS: env.optionalString(),
      // Retention: final deliveries and spent outbox events older than this are pruned
      // (alerts and occurrences never are). Deliveries show in the admin API, so keep a while.
      NOTIFY_RETENTION_DAYS: env.int(30, 1, 36_500),
      RETENTION_INTERVAL_MS: env.int(3_600_000, 1_000, 86_400_000),
      // Deleted teams are purged this often (and at once after a deletion).
      PURGE_INTERVAL_MS: env.int(60_000, 100, 3_600_000),
      // How often due reminders (alert.reminder) are looked for.
      REMINDER_INTERVAL_MS: env.int(5_000, 100, 600_000),
      // The relay email channels send through (smtp:// or smtps://, credentials in the URL); unset: no email channels.
      SMTP_URL: env.optionalString(),
      SMTP_FROM: env.string("Pulsegate <pulsegate@localhost>"),
    },
    source,
  );
  checkDrainFitsShutdown(config);
  return { ...config, databaseUrl: config.ALERTS_DATABASE_URL ?? config.DATABASE_URL };
}

export type AlertsConfig = ReturnType<typeof loadAlertsConfig>;
