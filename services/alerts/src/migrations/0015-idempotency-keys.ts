import { createIdempotencyKeysSql, Migration } from "@pulsegate/db";

/** Idempotency-Key on triggers and resolves: each key's first answer, kept 24 hours. */
export class IdempotencyKeys extends Migration {
  override async up(): Promise<void> {
    for (const sql of createIdempotencyKeysSql("alerts")) this.addSql(sql);
  }
}
