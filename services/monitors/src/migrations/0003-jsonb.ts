import { jsonColumnsToJsonb, Migration } from "@pulsegate/db";

export class Jsonb extends Migration {
  override async up(): Promise<void> {
    // jsonb refuses what json let in (escaped U+0000, unpaired surrogates), so a
    // stored ping or incident action can always be read back.
    for (const statement of jsonColumnsToJsonb("monitors", [
      ["pings", "metadata"],
      ["incident_actions", "metadata"],
    ])) {
      this.addSql(statement);
    }
  }
}
