export { Migration } from "@mikro-orm/migrations";
export { defineEntity, EntityManager, type InferEntity, p } from "@mikro-orm/postgresql";
export {
  type BatchLimits,
  type BatchOutcome,
  deleteInBatches,
  RETENTION_BATCH_SIZE,
  RETENTION_MAX_BATCHES,
} from "./delete-in-batches.ts";
export { ensureDatabase } from "./ensure-database.ts";
export { executeWithAsyncCommit } from "./execute-with-async-commit.ts";
export { type OpenOrmOptions, type Orm, openOrm } from "./open-orm.ts";
export { openServiceDatabase } from "./open-service-database.ts";
export { runMigrations } from "./run-migrations.ts";
