import type { Logger } from "@pulsegate/runtime/logger";
import { awaitMigrations } from "./await-migrations.ts";
import { ensureDatabase } from "./ensure-database.ts";
import { type OpenOrmOptions, type Orm, openOrm } from "./open-orm.ts";
import { runMigrations } from "./run-migrations.ts";

export type OpenServiceDatabaseOptions = {
  /**
   * true (`npm start`, `npm run migrate`, the default): create the database if it is missing and
   * apply pending migrations. false (MIGRATE_ON_START=false, production): change nothing, and
   * wait until the migrate Job has applied every migration this release knows.
   */
  migrate?: boolean;
};

/**
 * What every service does at start (and `npm run migrate` does alone): open the service's schema,
 * migrated or waited for (see `migrate`).
 */
export async function openServiceDatabase(
  options: OpenOrmOptions,
  log: Logger,
  { migrate = true }: OpenServiceDatabaseOptions = {},
): Promise<Orm> {
  if (!migrate) {
    const names = options.migrations.map((migration) => migration.name);
    await awaitMigrations({ url: options.url, schema: options.schema, names }, log);
    return openOrm(options);
  }
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
