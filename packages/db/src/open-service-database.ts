import type { Logger } from "@pulsegate/logger";
import { ensureDatabase } from "./ensure-database.ts";
import { type OpenOrmOptions, type Orm, openOrm } from "./open-orm.ts";
import { runMigrations } from "./run-migrations.ts";

/**
 * What every service does at start (and `npm run migrate` does alone): create
 * the database if it is missing, open the service's schema, apply its pending
 * migrations.
 */
export async function openServiceDatabase(options: OpenOrmOptions, log: Logger): Promise<Orm> {
  await ensureDatabase(options.url);
  const orm = await openOrm(options);
  const started = performance.now();
  const applied = await runMigrations(orm, options.schema, (pending) =>
    log.info({ schema: options.schema, pending }, `applying ${pending.length} migration(s)`),
  );
  if (applied.length > 0) {
    log.info({ schema: options.schema, applied, ms: Math.round(performance.now() - started) }, "migrations applied");
  }
  return orm;
}
