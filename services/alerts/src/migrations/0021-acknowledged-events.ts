import { Migration } from "@pulsegate/db";

/** alert.acknowledged in the outbox: an acknowledgement tells the alert's channels who took it. */
export class AcknowledgedEvents extends Migration {
  override async up(): Promise<void> {
    // Widened, not narrowed: every event the previous release writes stays allowed.
    this.addSql(`-- reviewed contract: 4844bda — the check is replaced by a wider one in the next statement
      ALTER TABLE alerts.outbox DROP CONSTRAINT IF EXISTS outbox_event_type_check`);
    this.addSql(`-- reviewed contract: 4844bda — a wider check than the one it replaces: no stored row breaks it
      ALTER TABLE alerts.outbox ADD CONSTRAINT outbox_event_type_check
        CHECK (event_type IN ('alert.created','alert.reopened','alert.acknowledged','alert.resolved','alert.reminder',
                              'channel.disabled')) NOT VALID`);
    this.addSql("ALTER TABLE alerts.outbox VALIDATE CONSTRAINT outbox_event_type_check");
  }
}
