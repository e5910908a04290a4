import type { Migration } from "@mikro-orm/migrations";
import { Migrator } from "@mikro-orm/migrations";
import { type EntitySchema, MikroORM } from "@mikro-orm/postgresql";

export type OpenOrmOptions = {
  url: string;
  /** The service's own schema; a service never touches another's. */
  schema: string;
  entities: EntitySchema[];
  migrations: { name: string; class: new (...args: never[]) => Migration }[];
  poolMax?: number;
  debug?: boolean;
};

export type Orm = MikroORM;

/** Where MikroORM records the migrations applied to a schema (one row per migration, by name). */
export const MIGRATIONS_TABLE = "mikro_orm_migrations";

/**
 * Opens a MikroORM instance bound to one schema, with its committed migrations.
 * Raw SQL names its tables with the schema (`alerts.alerts`): the embedded
 * database shares one session between connections, so search_path cannot be
 * relied on.
 */
export async function openOrm(options: OpenOrmOptions): Promise<Orm> {
  return MikroORM.init({
    clientUrl: options.url,
    schema: options.schema,
    entities: options.entities,
    extensions: [Migrator],
    debug: options.debug ?? false,
    allowGlobalContext: false,
    // A service whose tables are all read and written through SQL (monitors: its hot path's) has none.
    discovery: { warnWhenNoEntities: false },
    pool: { min: 0, max: options.poolMax ?? 10, idleTimeoutMillis: 30_000 },
    driverOptions: { connectionTimeoutMillis: 5_000 },
    migrations: {
      // biome-ignore lint/suspicious/noExplicitAny: MikroORM's constructor type is wider than ours.
      migrationsList: options.migrations as any,
      schema: options.schema,
      tableName: MIGRATIONS_TABLE,
      snapshot: false,
      silent: true,
      transactional: true,
      allOrNothing: true,
    },
  });
}
