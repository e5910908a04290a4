import { Migration } from "@pulsegate/db";

/**
 * Each ping stored went into four indexes; the one on (monitor_id, received_at) served only the
 * retention, which reads a monitor's pings by id since 6fa05a0 (docs/decisions.md, "Time-ordered ids").
 * Without it a ping costs one random index page fewer.
 */
export class PingsOneMonitorIndex extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      -- reviewed contract: 6fa05a0 — from that release on the retention reads pings_monitor_idx; no running code reads pings_monitor_received_idx
      DROP INDEX IF EXISTS monitors.pings_monitor_received_idx`);
  }
}
