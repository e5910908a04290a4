import { createPgPool, type OpenServiceDatabaseOptions, openServiceDatabase, splitPoolBudget } from "@pulsegate/db";
import { callUnary, connectClient, type ServiceBinding } from "@pulsegate/grpc";
import { auth } from "@pulsegate/proto";
import { periodic } from "@pulsegate/runtime/lifecycle";
import type { Logger } from "@pulsegate/runtime/logger";
import { parseKeyring } from "@pulsegate/sealing";
import { AlertService } from "./alerts/alert-service.ts";
import { TriggerService } from "./alerts/trigger-service.ts";
import type { AlertsConfig } from "./config.ts";
import { purgeDeletedTeams } from "./deletion/purge-deleted-teams.ts";
import { TeamDeletions } from "./deletion/team-deletions.ts";
import { alertsServiceBinding } from "./grpc/alerts-server.ts";
import { migrations } from "./migrations/index.ts";
import { provideMigrationKeyring } from "./migrations/migration-keyring.ts";
import { ChannelSchema } from "./notifications/channels/channel.entity.ts";
import { ChannelSealer } from "./notifications/channels/channel-credentials.ts";
import { ChannelService } from "./notifications/channels/channel-service.ts";
import { ChannelTestLeases, channelTestLeaseMs } from "./notifications/channels/channel-test-leases.ts";
import { resealChannels } from "./notifications/channels/reseal-channels.ts";
import { DeliveryStore } from "./notifications/deliveries/delivery-store.ts";
import { Dispatcher } from "./notifications/deliveries/dispatcher.ts";
import { createEmailSender } from "./notifications/deliveries/send-email.ts";
import { createHttpSender } from "./notifications/deliveries/send-http.ts";
import { NotificationPolicySchema } from "./notifications/routing/notification-policy.entity.ts";
import { PolicyService } from "./notifications/routing/policy-service.ts";
import { reminderSchedule } from "./reminders/send-reminders.ts";
import { notificationRetention } from "./retention/notification-retention.ts";
import { SilenceSchema } from "./silences/silence.entity.ts";
import { SilenceService } from "./silences/silence-service.ts";
import { WebhookSchema } from "./webhooks/webhook.entity.ts";
import { WebhookService } from "./webhooks/webhook-service.ts";

export const ALERTS_SCHEMA = "alerts";

/** The KEK keyring channel credentials are sealed under (SECRET_KEK, the newest first). */
export function alertsKeyring(config: AlertsConfig) {
  return parseKeyring(config.SECRET_KEK, config.SECRET_KEK_PREVIOUS, config.NODE_ENV);
}

/**
 * Opens the alerts schema: creating the database if missing and applying pending migrations, or
 * with `migrate: false` (MIGRATE_ON_START=false) waiting until the migrate Job has applied them.
 */
export async function openAlertsDatabase(config: AlertsConfig, log: Logger, options: OpenServiceDatabaseOptions = {}) {
  // Only a migration that seals existing rows asks for it (0006): migrating an empty table needs no KEK.
  provideMigrationKeyring(() => alertsKeyring(config));
  return openServiceDatabase(
    {
      url: config.databaseUrl,
      schema: ALERTS_SCHEMA,
      entities: [WebhookSchema, ChannelSchema, NotificationPolicySchema, SilenceSchema],
      migrations,
      poolMax: splitPoolBudget(config.DB_POOL_MAX).orm,
    },
    log,
    options,
  );
}

/**
 * The trigger path's pool: plain pg with named prepared statements, beside the
 * ORM. Its statements only look rows up by key, and their generic plans are
 * made once per connection: statistics taken while the alerts table was tiny
 * (autovacuum off, or a fresh database) would keep a plan that scans the
 * whole table per key long after it holds millions. With sequential scans
 * off, an index is chosen whenever one exists.
 */
export function openTriggerPool(config: AlertsConfig) {
  return createPgPool({
    url: config.databaseUrl,
    max: splitPoolBudget(config.DB_POOL_MAX).hotPath,
    settings: { enable_seqscan: "off" },
  });
}

/**
 * Builds the alerts service, un-started: main.ts (or a test) serves `grpcServices`, starts the
 * notification dispatcher and retention, and closes.
 */
export async function buildAlertsService(config: AlertsConfig, log: Logger) {
  // Checked first: a bad SECRET_KEK stops the start, naming the variable.
  const sealer = new ChannelSealer(alertsKeyring(config));
  const orm = await openAlertsDatabase(config, log, { migrate: config.MIGRATE_ON_START });
  const pool = openTriggerPool(config);
  const webhooks = new WebhookService(orm, { cacheMs: config.WEBHOOK_CACHE_MS });
  const alertService = new AlertService(orm, { onOutboxWritten: () => dispatcher.nudge() });
  const silences = new SilenceService(orm, pool, { cacheMs: config.WEBHOOK_CACHE_MS });
  const allowPrivateNetworks = config.NOTIFY_ALLOW_PRIVATE_NETWORKS;
  if (allowPrivateNetworks) log.warn("NOTIFY_ALLOW_PRIVATE_NETWORKS=true: notifications may reach private addresses");
  const email = config.SMTP_URL
    ? createEmailSender({
        smtpUrl: config.SMTP_URL,
        from: config.SMTP_FROM,
        timeoutMs: config.NOTIFY_ATTEMPT_TIMEOUT_MS,
      })
    : undefined;
  const channels = new ChannelService(orm, { allowPrivateNetworks, sealer, emailEnabled: email !== undefined });
  const policies = new PolicyService(orm, channels);
  const deliveries = new DeliveryStore(orm, { onRetried: () => dispatcher.nudge() });

  // Sign is served on auth's signing listener only (a NetworkPolicy opens it to alerts alone).
  const authClient = connectClient(auth.AuthServiceClient, config.AUTH_SIGNING_GRPC_ADDR, {
    deadlineMs: config.NOTIFY_ATTEMPT_TIMEOUT_MS,
  });
  const sender = createHttpSender({ allowPrivateNetworks, timeoutMs: config.NOTIFY_ATTEMPT_TIMEOUT_MS });
  const dispatcher = new Dispatcher({
    orm,
    log,
    sender,
    email,
    sign: async (teamId, payload) => (await callUnary(authClient, "sign", { teamId, payload })).signature,
    sealer,
    health: { disableAfterMs: config.NOTIFY_DISABLE_AFTER_MS, minFailures: config.NOTIFY_DISABLE_MIN_FAILURES },
    maxAttempts: config.NOTIFY_MAX_ATTEMPTS,
    attemptTimeoutMs: config.NOTIFY_ATTEMPT_TIMEOUT_MS,
    pollMs: config.NOTIFY_POLL_MS,
    backoff: { base: config.NOTIFY_BACKOFF_BASE_MS, max: config.NOTIFY_BACKOFF_MAX_MS },
    concurrency: config.NOTIFY_CONCURRENCY,
  });

  const retention = notificationRetention(orm, log, {
    retentionDays: config.NOTIFY_RETENTION_DAYS,
    intervalMs: config.RETENTION_INTERVAL_MS,
  });

  // Deleted teams' rows go in bounded batches, started at once by a deletion (and every PURGE_INTERVAL_MS).
  const purge = periodic({
    name: "deletion purge",
    intervalMs: config.PURGE_INTERVAL_MS,
    log,
    task: async (signal) => {
      const { skipped, removed, teamsFinished, more } = await purgeDeletedTeams(orm, { signal });
      if (!skipped && (removed > 0 || teamsFinished > 0)) log.info({ removed, teamsFinished }, "deleted teams purged");
      return more;
    },
  });
  const teamDeletions = new TeamDeletions(orm, { onDeleted: () => purge.kick() });

  const reminders = reminderSchedule(pool, log, {
    intervalMs: config.REMINDER_INTERVAL_MS,
    onOutboxWritten: () => dispatcher.nudge(),
  });

  const grpcServices: ServiceBinding[] = [
    alertsServiceBinding(
      log,
      pool,
      webhooks,
      alertService,
      new TriggerService({ pool, webhooks, log, silences, onOutboxWritten: () => dispatcher.nudge() }),
      {
        channels,
        policies,
        deliveries,
        resealChannels: async () => ({ ...(await resealChannels(pool, sealer)), kekId: sealer.currentKekId }),
        maxAttempts: config.NOTIFY_MAX_ATTEMPTS,
        send: (message) => dispatcher.send(message),
        channelTests: new ChannelTestLeases(orm, { leaseMs: channelTestLeaseMs(config.NOTIFY_ATTEMPT_TIMEOUT_MS) }),
      },
      teamDeletions,
      silences,
    ),
  ];
  /** Stops the dispatcher (attempts under way finish), then its HTTP pool and auth channel. */
  const stopNotifications = async () => {
    await dispatcher.stop();
    await sender.close();
    await email?.close();
    authClient.close();
  };
  const closeDatabase = async () => {
    await orm.close();
    await pool.end();
  };
  return {
    grpcServices,
    orm,
    pool,
    webhooks,
    alertService,
    dispatcher,
    retention,
    reminders,
    purge,
    stopNotifications,
    closeDatabase,
    close: async () => {
      await retention.stop();
      await reminders.stop();
      await purge.stop();
      await stopNotifications();
      await closeDatabase();
    },
  };
}
