import { Migration } from "@pulsegate/db";

/**
 * A ping's update of its monitor becomes HOT (docs/decisions.md, "Due checks: a queue beside the
 * monitor row"): the index on `next_due_at`, the one indexed column a ping changes, goes, since the
 * sweep reads the queue of due checks instead (0010), and the table keeps a fifth of each page free
 * for the new row versions, which HOT places on the page of the old one. The fill factor applies to
 * pages written from now on; the rows a ping moves settle into such pages as it goes.
 */
export class HotPingUpdates extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      -- reviewed contract: 3cf20e7 — from that release on the sweep reads monitors.due_checks; no running code reads monitors_due_idx
      DROP INDEX IF EXISTS monitors.monitors_due_idx`);
    this.addSql("ALTER TABLE monitors.monitors SET (fillfactor = 80)");
  }
}
