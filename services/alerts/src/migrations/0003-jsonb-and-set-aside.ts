import { jsonColumnsToJsonb, Migration } from "@pulsegate/db";

export class JsonbAndSetAside extends Migration {
  override async up(): Promise<void> {
    // jsonb refuses what json let in (escaped U+0000, unpaired surrogates), so a
    // stored event can always be read back by the dispatcher.
    for (const statement of jsonColumnsToJsonb("alerts", [
      ["alerts", "metadata"],
      ["occurrences", "metadata"],
      ["outbox", "payload"],
    ])) {
      this.addSql(statement);
    }
    // An event that cannot be expanded into deliveries is set aside with the
    // reason (never its content), so one bad row cannot stall every team's queue.
    this.addSql(
      "ALTER TABLE alerts.outbox ADD COLUMN set_aside_at timestamptz NULL, ADD COLUMN set_aside_reason text NULL",
    );
  }
}
