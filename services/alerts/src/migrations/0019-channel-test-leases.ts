import { Migration } from "@pulsegate/db";

/**
 * Channel tests in flight (POST /channels/{id}/test), across replicas: one lease per channel at
 * most, at most 3 per team (counted under the team's advisory lock). A lease is deleted when its
 * test ends; one whose expires_at has passed (its replica crashed) no longer counts.
 */
export class ChannelTestLeases extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TABLE alerts.channel_test_leases (
        channel_id text PRIMARY KEY,
        team_id text NOT NULL,
        lease_id text NOT NULL,
        expires_at timestamptz NOT NULL
      )`);
    this.addSql("CREATE INDEX channel_test_leases_team_idx ON alerts.channel_test_leases (team_id)");
  }
}
