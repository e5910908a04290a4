export { Migration } from "@mikro-orm/migrations";
export { defineEntity, EntityManager, type InferEntity, LockMode, p } from "@mikro-orm/postgresql";
export { type AwaitMigrationsOptions, awaitMigrations } from "./await-migrations.ts";
export {
  type BatchLimits,
  type BatchOutcome,
  countedDelete,
  type DeleteBatch,
  deleteInBatches,
  deleteInBatchesInOrder,
  type InOrderOutcome,
  RETENTION_BATCH_SIZE,
  RETENTION_MAX_BATCHES,
  TEAM_PURGE_SETTLE_SECONDS,
} from "./delete-in-batches.ts";
export { ensureDatabase } from "./ensure-database.ts";
export {
  type Claim,
  createIdempotencyKeysSql,
  deleteExpiredIdempotencyKeys,
  type IdempotencyKey,
  IdempotencyKeys,
  type IdempotencySchema,
} from "./idempotency-keys.ts";
export { jsonColumnsToJsonb } from "./json-to-jsonb.ts";
export { keysetSwap } from "./keyset-swap.ts";
export { type ChannelListener, type ChannelListenerOptions, listenToChannel } from "./listen-channel.ts";
export { type OpenOrmOptions, type Orm, openOrm } from "./open-orm.ts";
export { type OpenServiceDatabaseOptions, openServiceDatabase } from "./open-service-database.ts";
export { pendingMigrations } from "./pending-migrations.ts";
export {
  createPgPool,
  inTransaction,
  type PgClient,
  type PgPool,
  type PgPoolOptions,
  run,
  type Statement,
  statement,
} from "./pg-pool.ts";
export { splitPoolBudget } from "./pool-budget.ts";
export { type RowDate, rowDate, rowDateOrNull, rowTextArray } from "./row-values.ts";
export { runMigrations } from "./run-migrations.ts";
export { type UniqueNames, uniqueNamesSql } from "./unique-names.ts";
export { isUniqueViolation, onUniqueViolation } from "./unique-violation.ts";
