import { Migration } from "@pulsegate/db";

/**
 * Expanding an event deletes its queue row and leaves the outbox row as written (docs/decisions.md,
 * "The outbox's queue beside it"): the index of unexpanded events goes, since the expansion reads
 * `alerts.outbox_pending` (0022) and no running release marks `expanded_at` for its own use.
 */
export class OutboxPendingOnly extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      -- reviewed contract: 207cfdd — from that release on the expansion reads alerts.outbox_pending; no running code reads outbox_unexpanded_idx
      DROP INDEX IF EXISTS alerts.outbox_unexpanded_idx`);
  }
}
