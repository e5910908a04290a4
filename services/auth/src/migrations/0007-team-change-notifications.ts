import { Migration } from "@pulsegate/db";

export class TeamChangeNotifications extends Migration {
  override async up(): Promise<void> {
    // Every auth replica holds teams' keys in memory (opened for a few seconds, sealed in the
    // directory): a change to what verification reads is announced on the channel
    // `auth_team_changed` (payload: the team id) at its commit, whichever replica or tool made it,
    // and every replica drops and reloads that team at once (docs/operations.md, "Replicas").
    // Only those columns: "last used" writes, a rename or a KEK re-seal announce nothing.
    this.addSql(`
      CREATE FUNCTION auth.announce_team_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('auth_team_changed', CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END);
        RETURN NULL;
      END
      $$`);
    this.addSql(`
      CREATE TRIGGER teams_keys_changed AFTER UPDATE ON auth.teams FOR EACH ROW
        WHEN (OLD.secret_fingerprint IS DISTINCT FROM NEW.secret_fingerprint
           OR OLD.previous_secret_fingerprint IS DISTINCT FROM NEW.previous_secret_fingerprint
           OR OLD.previous_secret_valid_until IS DISTINCT FROM NEW.previous_secret_valid_until
           OR OLD.subscription_expires_at IS DISTINCT FROM NEW.subscription_expires_at
           OR OLD.alert_quota_monthly IS DISTINCT FROM NEW.alert_quota_monthly
           OR OLD.heartbeat_quota_monthly IS DISTINCT FROM NEW.heartbeat_quota_monthly)
        EXECUTE FUNCTION auth.announce_team_change()`);
    this.addSql(`
      CREATE TRIGGER teams_deleted AFTER DELETE ON auth.teams FOR EACH ROW
        EXECUTE FUNCTION auth.announce_team_change()`);
  }
}
