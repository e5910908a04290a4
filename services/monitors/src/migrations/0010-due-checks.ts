import { Migration } from "@pulsegate/db";

/**
 * The sweep's queue of due checks, apart from the monitor row (docs/decisions.md, "Due checks: a
 * queue beside the monitor row"). A ping rewrites its monitor's row; while `next_due_at`, which every
 * ping moves, is indexed in that row, no such update is HOT and each one inserts into six of the
 * table's seven indexes. Here the sweep finds due monitors through `due_checks` instead: one narrow
 * row per monitor whose `check_at` is never later than the monitor's `next_due_at`, kept so by a
 * trigger on the monitor row (for every writer, the previous release's too) and moved forward by
 * the sweep when it comes early. The old index on `next_due_at` goes a release later (0011), once no
 * running sweeper reads it; from then on a ping's update of its monitor is HOT.
 */
export class DueChecks extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TABLE monitors.due_checks (
        monitor_id text PRIMARY KEY REFERENCES monitors.monitors (id) ON DELETE CASCADE,
        check_at timestamptz NOT NULL
      )`);
    this.addSql("CREATE INDEX due_checks_check_at_idx ON monitors.due_checks (check_at)");
    // A due time set, or moved earlier, is queued (LEAST with a check already queued). A due time
    // moved later, as nearly every ping does, leaves the queue alone: the WHEN clause decides without
    // calling the function, and the check already queued comes early, which the sweep allows for.
    this.addSql(`
      CREATE FUNCTION monitors.queue_due_check() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO monitors.due_checks AS queued (monitor_id, check_at) VALUES (NEW.id, NEW.next_due_at)
        ON CONFLICT (monitor_id) DO UPDATE SET check_at = EXCLUDED.check_at WHERE queued.check_at > EXCLUDED.check_at;
        RETURN NULL;
      END
      $$`);
    this.addSql(`
      CREATE TRIGGER monitors_queue_due_check_on_insert AFTER INSERT ON monitors.monitors
         FOR EACH ROW WHEN (NEW.next_due_at IS NOT NULL) EXECUTE FUNCTION monitors.queue_due_check()`);
    this.addSql(`
      CREATE TRIGGER monitors_queue_due_check_on_update AFTER UPDATE OF next_due_at ON monitors.monitors
         FOR EACH ROW WHEN (NEW.next_due_at IS NOT NULL AND (OLD.next_due_at IS NULL OR NEW.next_due_at < OLD.next_due_at))
         EXECUTE FUNCTION monitors.queue_due_check()`);
    // The due monitors there now. Creating the trigger waited for writers in flight and holds theirs
    // off until this transaction commits, so none is missed between the two.
    this.addSql(`
      INSERT INTO monitors.due_checks (monitor_id, check_at)
      SELECT id, next_due_at FROM monitors.monitors WHERE next_due_at IS NOT NULL`);
  }
}
