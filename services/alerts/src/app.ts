import { ensureDatabase, openOrm, runMigrations } from "@pulsegate/db";
import { createGrpcServer } from "@pulsegate/grpc";
import type { Logger } from "@pulsegate/logger";
import { AlertService } from "./alerts/alert-service.ts";
import type { AlertsConfig } from "./config.ts";
import { alertsServiceBinding } from "./grpc/alerts-server.ts";
import { migrations } from "./migrations/index.ts";
import { WebhookSchema } from "./webhooks/webhook.entity.ts";
import { WebhookService } from "./webhooks/webhook-service.ts";

export const ALERTS_SCHEMA = "alerts";

/** Opens the alerts schema, creating the database if missing and applying pending migrations. */
export async function openAlertsDatabase(config: AlertsConfig, log: Logger) {
  await ensureDatabase(config.databaseUrl);
  const orm = await openOrm({
    url: config.databaseUrl,
    schema: ALERTS_SCHEMA,
    entities: [WebhookSchema],
    migrations,
    poolMax: config.DB_POOL_MAX,
  });
  const applied = await runMigrations(orm, ALERTS_SCHEMA);
  if (applied.length > 0) log.info({ applied }, "migrations applied");
  return orm;
}

/** Builds the alerts service, un-started: main.ts (or a test) listens and closes. */
export async function buildAlertsService(config: AlertsConfig, log: Logger) {
  const orm = await openAlertsDatabase(config, log);
  const webhooks = new WebhookService(orm);
  const alertService = new AlertService(orm);
  const grpc = createGrpcServer([alertsServiceBinding(log, orm, webhooks, alertService)]);
  return { grpc, orm, webhooks, alertService };
}
