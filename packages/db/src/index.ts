export { Migration } from "@mikro-orm/migrations";
export { defineEntity, EntityManager, type InferEntity, p } from "@mikro-orm/postgresql";
export { ensureDatabase } from "./ensure-database.ts";
export { type OpenOrmOptions, type Orm, openOrm } from "./open-orm.ts";
export { openServiceDatabase } from "./open-service-database.ts";
export { runMigrations } from "./run-migrations.ts";
