export { ensureDatabase } from "./ensure-database.ts";
export { openOrm, type Orm, type OpenOrmOptions } from "./open-orm.ts";
export { runMigrations } from "./run-migrations.ts";
export { Migration } from "@mikro-orm/migrations";
export { EntityManager, defineEntity, p, type InferEntity } from "@mikro-orm/postgresql";
