import { Migrator } from "@mikro-orm/migrations";
import type { Migration } from "@mikro-orm/migrations";
import { MikroORM, type EntitySchema } from "@mikro-orm/postgresql";

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

/** Opens a MikroORM instance bound to one schema, with its committed migrations. */
export async function openOrm(options: OpenOrmOptions): Promise<Orm> {
  return MikroORM.init({
    clientUrl: options.url,
    schema: options.schema,
    entities: options.entities,
    extensions: [Migrator],
    debug: options.debug ?? false,
    allowGlobalContext: false,
    pool: { min: 0, max: options.poolMax ?? 10, idleTimeoutMillis: 30_000 },
    driverOptions: { connectionTimeoutMillis: 5_000 },
    migrations: {
      // biome-ignore lint/suspicious/noExplicitAny: MikroORM's constructor type is wider than ours.
      migrationsList: options.migrations as any,
      schema: options.schema,
      tableName: "mikro_orm_migrations",
      snapshot: false,
      transactional: true,
      allOrNothing: true,
    },
  });
}
