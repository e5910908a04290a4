import { Migration } from "@pulsegate/db";

/** Who acknowledged and who resolved an alert, as people read it (a person, an API key, the admin token). */
export class AlertActors extends Migration {
  override async up(): Promise<void> {
    this.addSql("ALTER TABLE alerts.alerts ADD COLUMN acknowledged_by text NULL, ADD COLUMN resolved_by text NULL");
  }
}
