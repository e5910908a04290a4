import type { PgPool } from "@pulsegate/db";
import type { ChannelSealer } from "./channel-credentials.ts";

export type ResealCounts = { resealed: number; alreadyCurrent: number };

const PAGE = 1_000;

/**
 * Re-seals every channel's credentials (deleted channels' too) under the
 * current KEK, a page at a time, each page one statement. A channel whose
 * credentials changed meanwhile was sealed under the current KEK by that
 * change, and is left alone.
 */
export async function resealChannels(pool: PgPool, sealer: ChannelSealer): Promise<ResealCounts> {
  const counts: ResealCounts = { resealed: 0, alreadyCurrent: 0 };
  let after = "";
  for (;;) {
    const { rows } = await pool.query<{ id: string; credentials_sealed: Buffer }>(
      "SELECT id, credentials_sealed FROM alerts.channels WHERE id > $1 ORDER BY id LIMIT $2",
      [after, PAGE],
    );
    const changes = [];
    for (const row of rows) {
      const resealed = sealer.resealIfOld(row.id, row.credentials_sealed);
      if (resealed === null) counts.alreadyCurrent++;
      else changes.push({ id: row.id, old: row.credentials_sealed.toString("hex"), sealed: resealed.toString("hex") });
    }
    if (changes.length > 0) {
      const result = await pool.query(
        `UPDATE alerts.channels c SET credentials_sealed = decode(v.sealed, 'hex')
           FROM jsonb_to_recordset($1::jsonb) AS v(id text, old text, sealed text)
          WHERE c.id = v.id AND c.credentials_sealed = decode(v.old, 'hex')`,
        [JSON.stringify(changes)],
      );
      counts.resealed += result.rowCount ?? 0;
    }
    const last = rows.at(-1);
    if (!last || rows.length < PAGE) return counts;
    after = last.id;
  }
}
