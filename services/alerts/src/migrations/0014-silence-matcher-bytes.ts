import { Migration } from "@pulsegate/db";

/**
 * The size of each silence's matchers as stored (UTF-8 bytes of the jsonb's text), kept by the
 * database itself: the per-team total of SILENCE_LIMITS is summed from it, and the trigger path
 * reads a team's silences only up to that total, which also bounds rows stored before it existed.
 */
export class SilenceMatcherBytes extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      "ALTER TABLE alerts.silences ADD COLUMN matchers_bytes integer GENERATED ALWAYS AS (octet_length(matchers::text)) STORED",
    );
  }
}
