import { Migration } from "@pulsegate/db";

/** Standard Webhooks (docs/integrations.md): the scheme a monitor's pings are signed with. */
export class SignatureSchemes extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      "ALTER TABLE monitors.monitors ADD COLUMN signature_scheme text NOT NULL DEFAULT 'pulsegate' CHECK (signature_scheme IN ('pulsegate','standard-webhooks'))",
    );
  }
}
