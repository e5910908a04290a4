import { Migration } from "@pulsegate/db";
import { ChannelSealer } from "../notifications/channels/channel-credentials.ts";
import { maskUrl } from "../notifications/channels/mask-url.ts";
import { migrationKeyring } from "./migration-keyring.ts";

const SEAL_BATCH = 500;

/**
 * Channel URLs (bearer credentials) are sealed under a key derived
 * from SECRET_KEK, the channel id as associated data, and the plain column is
 * dropped: a dump, a backup or a read replica no longer holds them. Also the
 * delivery policy's columns: why and when a channel was disabled, and the run
 * of failures that may disable it; and channel notices in the outbox.
 */
export class SealChannelCredentials extends Migration {
  override async up(): Promise<void> {
    await this.execute(
      `ALTER TABLE alerts.channels
         ADD COLUMN credentials_sealed bytea NULL,
         ADD COLUMN masked_url text NULL,
         ADD COLUMN disabled_reason text NULL,
         ADD COLUMN disabled_at timestamptz NULL,
         ADD COLUMN failing_since timestamptz NULL,
         ADD COLUMN failed_deliveries integer NOT NULL DEFAULT 0`,
    );
    const rows = (await this.execute("SELECT id, url FROM alerts.channels ORDER BY id")) as {
      id: string;
      url: string;
    }[];
    if (rows.length > 0) {
      const sealer = new ChannelSealer(migrationKeyring());
      for (let at = 0; at < rows.length; at += SEAL_BATCH) {
        const batch = rows.slice(at, at + SEAL_BATCH).map((row) => ({
          id: row.id,
          sealed: sealer.seal(row.id, { url: row.url }).toString("hex"),
          masked: maskUrl(row.url),
        }));
        await this.execute(
          `UPDATE alerts.channels c SET credentials_sealed = decode(v.sealed, 'hex'), masked_url = v.masked
             FROM jsonb_to_recordset(?::jsonb) AS v(id text, sealed text, masked text) WHERE c.id = v.id`,
          [JSON.stringify(batch)],
        );
      }
    }
    await this.execute(
      `ALTER TABLE alerts.channels DROP COLUMN url,
         ALTER COLUMN credentials_sealed SET NOT NULL, ALTER COLUMN masked_url SET NOT NULL`,
    );
    // A channel disabled by the delivery policy tells the team's other channels once:
    // an outbox event about a channel, not an alert.
    await this.execute("ALTER TABLE alerts.outbox ALTER COLUMN alert_id DROP NOT NULL");
    await this.execute("ALTER TABLE alerts.outbox DROP CONSTRAINT IF EXISTS outbox_event_type_check");
    await this.execute(
      `ALTER TABLE alerts.outbox ADD CONSTRAINT outbox_event_type_check
         CHECK (event_type IN ('alert.created','alert.reopened','alert.resolved','channel.disabled'))`,
    );
    await this.execute("ALTER TABLE alerts.deliveries ALTER COLUMN alert_id DROP NOT NULL");
  }
}
