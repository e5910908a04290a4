import { Migration } from "@pulsegate/db";

/** Maintenance windows and silences; the silence an alert was created or reopened under. */
export class Silences extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TABLE alerts.silences (
        id text PRIMARY KEY,
        team_id text NOT NULL,
        name text NOT NULL,
        starts_at timestamptz NOT NULL,
        ends_at timestamptz NOT NULL CHECK (ends_at > starts_at),
        recurrence text NULL CHECK (recurrence IN ('daily','weekly')),
        matchers jsonb NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    this.addSql("CREATE INDEX silences_team_idx ON alerts.silences (team_id, created_at, id)");
    this.addSql("ALTER TABLE alerts.alerts ADD COLUMN silenced_by text NULL");
  }
}
