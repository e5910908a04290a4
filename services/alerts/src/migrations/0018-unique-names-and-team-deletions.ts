import { Migration, uniqueNamesSql } from "@pulsegate/db";

/**
 * Names unique within a team for webhooks, live channels (a deleted channel's name may be given
 * again) and silences (docs/decisions.md, "Names"; duplicates stored before are renamed first),
 * and the record of deleted teams whose rows are being removed in the background
 * (docs/decisions.md, "Deleting").
 */
export class UniqueNamesAndTeamDeletions extends Migration {
  override async up(): Promise<void> {
    const unique = [
      { table: "alerts.webhooks", index: "webhooks_team_name_key" },
      { table: "alerts.channels", index: "channels_team_name_key", live: "deleted_at IS NULL" },
      { table: "alerts.silences", index: "silences_team_name_key" },
    ];
    for (const spec of unique) {
      for (const sql of uniqueNamesSql({ ...spec, within: ["team_id"], maxLength: 200 })) this.addSql(sql);
    }
    // One row per deleted team: its webhooks, alerts and the rest go in bounded batches
    // (purged_at once nothing is left); kept, so a late straggler of the team is recognised.
    this.addSql(`
      CREATE TABLE alerts.team_deletions (
        team_id text PRIMARY KEY,
        deleted_at timestamptz NOT NULL,
        purged_at timestamptz NULL
      )`);
    this.addSql(
      "CREATE INDEX team_deletions_pending_idx ON alerts.team_deletions (deleted_at) WHERE purged_at IS NULL",
    );
  }
}
