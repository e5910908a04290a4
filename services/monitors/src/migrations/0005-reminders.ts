import { Migration } from "@pulsegate/db";

/** A monitor's reminder interval, carried by its incident actions to the alert they raise. */
export class Reminders extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      "ALTER TABLE monitors.monitors ADD COLUMN repeat_interval_seconds integer NULL CHECK (repeat_interval_seconds > 0)",
    );
    this.addSql("ALTER TABLE monitors.incident_actions ADD COLUMN repeat_interval_seconds integer NULL");
  }
}
