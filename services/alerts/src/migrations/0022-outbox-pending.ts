import { Migration } from "@pulsegate/db";

/**
 * The expansion's queue apart from the outbox row (docs/decisions.md, "The outbox's queue beside
 * it"). Marking an event expanded rewrote its outbox row — the alert's whole snapshot, a non-HOT
 * update (`outbox_unexpanded_idx` indexes on `expanded_at`) that wrote the row again to the
 * write-ahead log and left a dead copy for vacuum: half the WAL of a new alert. Here each
 * unexpanded event has one narrow row in `outbox_pending`, kept by triggers for every writer (the
 * previous release's too): an event inserted unexpanded is queued, an event marked expanded (as the
 * previous release and a set-aside do) or deleted leaves the queue, and one whose mark is taken back
 * (an operator's retry of a set-aside event) is queued again. This release reads the queue and still
 * marks `expanded_at`, which the previous release reads; the next stops marking and drops
 * `outbox_unexpanded_idx` (0023), so expanding an event deletes a queue row instead.
 */
export class OutboxPending extends Migration {
  override async up(): Promise<void> {
    // No foreign key: its check (a look-up and a row lock per queued event) cost more than the queue
    // saves; the triggers below keep every queued id an outbox row's.
    this.addSql("CREATE TABLE alerts.outbox_pending (outbox_id bigint PRIMARY KEY)");
    // Once per statement: a trigger batch writes its events in one INSERT.
    this.addSql(`
      CREATE FUNCTION alerts.queue_outbox_events() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO alerts.outbox_pending (outbox_id) SELECT id FROM inserted WHERE expanded_at IS NULL;
        RETURN NULL;
      END
      $$`);
    this.addSql(`
      CREATE TRIGGER outbox_queue_on_insert AFTER INSERT ON alerts.outbox
         REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION alerts.queue_outbox_events()`);
    this.addSql(`
      CREATE FUNCTION alerts.follow_outbox_mark() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.expanded_at IS NULL THEN
          INSERT INTO alerts.outbox_pending (outbox_id) VALUES (NEW.id) ON CONFLICT DO NOTHING;
        ELSE
          DELETE FROM alerts.outbox_pending WHERE outbox_id = NEW.id;
        END IF;
        RETURN NULL;
      END
      $$`);
    this.addSql(`
      CREATE TRIGGER outbox_follow_mark AFTER UPDATE OF expanded_at ON alerts.outbox
         FOR EACH ROW WHEN ((OLD.expanded_at IS NULL) <> (NEW.expanded_at IS NULL))
         EXECUTE FUNCTION alerts.follow_outbox_mark()`);
    // An event deleted (a deleted team's purge; retention never deletes a queued one) leaves the queue.
    this.addSql(`
      CREATE FUNCTION alerts.dequeue_deleted_outbox_events() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM alerts.outbox_pending q USING deleted WHERE q.outbox_id = deleted.id;
        RETURN NULL;
      END
      $$`);
    this.addSql(`
      CREATE TRIGGER outbox_dequeue_on_delete AFTER DELETE ON alerts.outbox
         REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION alerts.dequeue_deleted_outbox_events()`);
    // The events awaiting expansion now. Creating the triggers waited for writers in flight and holds
    // theirs off until this transaction commits, so none is missed between the two.
    this.addSql(`
      INSERT INTO alerts.outbox_pending (outbox_id)
      SELECT id FROM alerts.outbox WHERE expanded_at IS NULL`);
  }
}
