import { Migration } from "@pulsegate/db";

/**
 * An alert whose reminder cannot be written on its own is taken off the reminder list and set
 * aside with the reason (never its content), so one bad row cannot stall every team's reminders
 * (docs/operations.md, "What our queues set aside"). Nullable columns: no table rewrite.
 */
export class ReminderSetAside extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      "ALTER TABLE alerts.alerts ADD COLUMN reminder_set_aside_at timestamptz NULL, ADD COLUMN reminder_set_aside_reason text NULL",
    );
  }
}
