import { Migration } from "@pulsegate/db";

export class TeamsUpdatedIndex extends Migration {
  override async up(): Promise<void> {
    // Auth keeps every team's sealed keys in memory and reads what changed
    // since its last look, by updated_at, every TEAM_DIRECTORY_REFRESH_MS.
    this.addSql("CREATE INDEX teams_updated_idx ON auth.teams (updated_at, id)");
  }
}
