import { Migration } from "@pulsegate/db";

/** Email channels (mailto: recipients, sent through the service's SMTP relay). */
export class EmailChannels extends Migration {
  override async up(): Promise<void> {
    this.addSql("ALTER TABLE alerts.channels DROP CONSTRAINT IF EXISTS channels_kind_check");
    this.addSql(
      "ALTER TABLE alerts.channels ADD CONSTRAINT channels_kind_check CHECK (kind IN ('slack','webhook','pagerduty','opsgenie','email'))",
    );
  }
}
