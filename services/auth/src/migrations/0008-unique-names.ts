import { Migration, uniqueNamesSql } from "@pulsegate/db";

/**
 * Team names are unique, and so are the names of a team's live API keys (a revoked key's name may
 * be given again): docs/decisions.md, "Names". Duplicates stored before are renamed first.
 */
export class UniqueNames extends Migration {
  override async up(): Promise<void> {
    for (const sql of uniqueNamesSql({ table: "auth.teams", index: "teams_name_key", within: [], maxLength: 200 })) {
      this.addSql(sql);
    }
    for (const sql of uniqueNamesSql({
      table: "auth.api_keys",
      index: "api_keys_team_name_key",
      within: ["team_id"],
      live: "revoked_at IS NULL",
      maxLength: 200,
    })) {
      this.addSql(sql);
    }
  }
}
