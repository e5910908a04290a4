import { Migration } from "@pulsegate/db";

/**
 * Alertmanager webhooks (docs/integrations.md): a webhook's source, and for Alertmanager ones the
 * SHA-256 of the bearer token (never the token), with the replaced token's until its grace ends.
 */
export class AlertmanagerWebhooks extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      ALTER TABLE alerts.webhooks
        ADD COLUMN source text NOT NULL DEFAULT 'signed',
        ADD COLUMN bearer_token_hash bytea NULL CHECK (octet_length(bearer_token_hash) = 32),
        ADD COLUMN previous_bearer_token_hash bytea NULL CHECK (octet_length(previous_bearer_token_hash) = 32),
        ADD COLUMN previous_bearer_token_valid_until timestamptz NULL`);
  }
}
