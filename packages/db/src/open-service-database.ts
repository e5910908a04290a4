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
  const applied = await runMigrations(orm, options.schema);
  if (applied.length > 0) log.info({ schema: options.schema, applied }, "migrations applied");
  return orm;
}
