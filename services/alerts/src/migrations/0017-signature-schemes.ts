import { Migration } from "@pulsegate/db";

/**
 * Standard Webhooks (docs/integrations.md): the scheme a webhook's triggers are signed with, and
 * the scheme a webhook channel signs with. A standard-webhooks channel's own signing secret is
 * sealed with its URL (credentials_sealed); only when it was issued and until when the previous
 * one still signs are kept beside it. Other kinds of channel have no scheme (null).
 */
export class SignatureSchemes extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      "ALTER TABLE alerts.webhooks ADD COLUMN signature_scheme text NOT NULL DEFAULT 'pulsegate' CHECK (signature_scheme IN ('pulsegate','standard-webhooks'))",
    );
    this.addSql(
      "ALTER TABLE alerts.channels ADD COLUMN signature_scheme text CHECK (signature_scheme IN ('pulsegate','standard-webhooks'))",
    );
    this.addSql("UPDATE alerts.channels SET signature_scheme = 'pulsegate' WHERE kind = 'webhook'");
    this.addSql("ALTER TABLE alerts.channels ADD COLUMN signing_secret_rotated_at timestamptz");
    this.addSql("ALTER TABLE alerts.channels ADD COLUMN previous_signing_secret_valid_until timestamptz");
  }
}
