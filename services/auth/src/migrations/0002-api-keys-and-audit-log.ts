import { Migration } from "@pulsegate/db";

export class ApiKeysAndAuditLog extends Migration {
  override async up(): Promise<void> {
    // A token is looked up by its first 12 characters (not secret) and then compared by SHA-256 in
    // constant time, so no query ever searches by the secret itself.
    this.addSql(`
      CREATE TABLE auth.api_keys (
        id text PRIMARY KEY,
        team_id text NOT NULL REFERENCES auth.teams (id),
        name varchar(200) NOT NULL,
        scope text NOT NULL CHECK (scope IN ('read', 'write')),
        token_prefix char(12) NOT NULL,
        token_hash bytea NOT NULL CHECK (octet_length(token_hash) = 32),
        created_at timestamptz NOT NULL,
        last_used_at timestamptz NULL,
        revoked_at timestamptz NULL
      )`);
    this.addSql("CREATE INDEX api_keys_token_prefix_idx ON auth.api_keys (token_prefix)");
    this.addSql("CREATE INDEX api_keys_team_idx ON auth.api_keys (team_id, created_at DESC)");
    // Append-only. No foreign key to teams: an entry must never fail a batch of others.
    this.addSql(`
      CREATE TABLE auth.audit_log (
        id text PRIMARY KEY,
        team_id text NOT NULL,
        at timestamptz NOT NULL,
        actor_kind text NOT NULL CHECK (actor_kind IN ('admin', 'api_key')),
        actor_id text NULL,
        actor_name text NULL,
        action text NOT NULL,
        target_kind text NOT NULL,
        target_id text NOT NULL,
        details jsonb NOT NULL DEFAULT '{}'::jsonb
      )`);
    this.addSql("CREATE INDEX audit_log_team_at_idx ON auth.audit_log (team_id, at DESC, id DESC)");
    // Listing every team, oldest first.
    this.addSql("CREATE INDEX teams_created_idx ON auth.teams (created_at, id)");
  }
}
