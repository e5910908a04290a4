import type { PgPool } from "@pulsegate/db";
import { type ResealCounts, resealInPages } from "@pulsegate/sealing";
import type { ChannelSealer } from "./channel-credentials.ts";

type ChannelCredentialsRow = { id: string; credentials_sealed: Buffer };

/** Re-seals every channel's credentials (deleted channels' too) under the current KEK. */
export async function resealChannels(pool: PgPool, sealer: ChannelSealer): Promise<ResealCounts> {
  return resealInPages({
    readPage: async (after, limit) =>
      (
        await pool.query<ChannelCredentialsRow>(
          "SELECT id, credentials_sealed FROM alerts.channels WHERE id > $1 ORDER BY id LIMIT $2",
          [after, limit],
        )
      ).rows,
    reseal: (row) => {
      const resealed = sealer.resealIfOld(row.id, row.credentials_sealed);
      return resealed === null
        ? null
        : { id: row.id, old: row.credentials_sealed.toString("hex"), sealed: resealed.toString("hex") };
    },
    write: async (changes) => {
      const result = await pool.query(
        `UPDATE alerts.channels c SET credentials_sealed = decode(v.sealed, 'hex')
           FROM jsonb_to_recordset($1::jsonb) AS v(id text, old text, sealed text)
          WHERE c.id = v.id AND c.credentials_sealed = decode(v.old, 'hex')`,
        [JSON.stringify(changes)],
      );
      return result.rowCount ?? 0;
    },
  });
}
