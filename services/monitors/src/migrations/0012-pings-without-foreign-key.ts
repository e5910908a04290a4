import { Migration } from "@pulsegate/db";

/**
 * Pings keep their monitor by the way they are written, not by a foreign key (docs/decisions.md,
 * "Pings without a foreign key"): the key's check ran
 * once for every ping stored (a look-up of its monitor with a row lock), about a tenth of
 * PostgreSQL's work for a ping, to confirm what the batch already holds: a ping is written only for
 * a monitor its batch has locked and found not deleted (LOCK_BATCH), and the purge removes a monitor
 * only once none of its pings is left.
 */
export class PingsWithoutForeignKey extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      -- reviewed contract: 415c502 — no code relies on it: pings are written only for monitors their batch holds locked and live, and the purge deletes a monitor after its pings
      ALTER TABLE monitors.pings DROP CONSTRAINT IF EXISTS pings_monitor_id_fkey`);
  }
}
