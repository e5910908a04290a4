import { Migration } from "@pulsegate/db";

/** Opt-in replay protection (a timestamp in the signature) per webhook. */
export class ReplayProtection extends Migration {
  override async up(): Promise<void> {
    this.addSql("ALTER TABLE alerts.webhooks ADD COLUMN require_timestamp boolean NOT NULL DEFAULT false");
  }
}
