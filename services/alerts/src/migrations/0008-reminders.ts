import { Migration } from "@pulsegate/db";

/** Reminders (alert.reminder) while an alert stays open and unacknowledged. */
export class Reminders extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      "ALTER TABLE alerts.webhooks ADD COLUMN repeat_interval_seconds integer NULL CHECK (repeat_interval_seconds > 0)",
    );
    this.addSql(`
      ALTER TABLE alerts.alerts
        ADD COLUMN repeat_interval_seconds integer NULL CHECK (repeat_interval_seconds > 0),
        -- Set while the alert is open (not acknowledged, not resolved) and has an interval.
        ADD COLUMN next_reminder_at timestamptz NULL,
        ADD COLUMN reminders_sent integer NOT NULL DEFAULT 0`);
    // The reminder pass reads only due rows: its cost follows the alerts that remind, not all alerts.
    this.addSql(
      "CREATE INDEX alerts_reminder_due_idx ON alerts.alerts (next_reminder_at) WHERE next_reminder_at IS NOT NULL",
    );
    this.addSql("ALTER TABLE alerts.outbox DROP CONSTRAINT IF EXISTS outbox_event_type_check");
    this.addSql(
      `ALTER TABLE alerts.outbox ADD CONSTRAINT outbox_event_type_check
         CHECK (event_type IN ('alert.created','alert.reopened','alert.resolved','alert.reminder','channel.disabled'))`,
    );
  }
}
