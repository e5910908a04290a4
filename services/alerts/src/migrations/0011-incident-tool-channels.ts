import { Migration } from "@pulsegate/db";

/** PagerDuty and Opsgenie channels (their keys are sealed with the URL, like it). */
export class IncidentToolChannels extends Migration {
  override async up(): Promise<void> {
    this.addSql("ALTER TABLE alerts.channels DROP CONSTRAINT IF EXISTS channels_kind_check");
    this.addSql(
      "ALTER TABLE alerts.channels ADD CONSTRAINT channels_kind_check CHECK (kind IN ('slack','webhook','pagerduty','opsgenie'))",
    );
  }
}
