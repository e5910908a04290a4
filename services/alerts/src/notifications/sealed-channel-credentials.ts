import type { PgPool } from "@pulsegate/db";

/** A channel's sealed credentials, as the KEK re-seal reads them. */
export type SealedChannelCredentialsRow = { id: string; credentials_sealed: Buffer };

/** A re-sealed value, hex: written only where the row still holds `old`. */
export type SealedChannelCredentialsChange = { id: string; old: string; sealed: string };

/** A page of every channel's sealed credentials (deleted channels' too), keyset over id. $1 after; $2 limit. */
export const SELECT_SEALED_CHANNEL_CREDENTIALS =
  "SELECT id, credentials_sealed FROM alerts.channels WHERE id > $1 ORDER BY id LIMIT $2";

/** Swaps each channel's sealed credentials unless they changed meanwhile (compare and set). $1 the changes as JSON. */
export const SWAP_SEALED_CHANNEL_CREDENTIALS = `UPDATE alerts.channels c SET credentials_sealed = decode(v.sealed, 'hex')
           FROM jsonb_to_recordset($1::jsonb) AS v(id text, old text, sealed text)
          WHERE c.id = v.id AND c.credentials_sealed = decode(v.old, 'hex')`;

export async function selectSealedChannelCredentials(
  pool: PgPool,
  after: string,
  limit: number,
): Promise<SealedChannelCredentialsRow[]> {
  return (await pool.query<SealedChannelCredentialsRow>(SELECT_SEALED_CHANNEL_CREDENTIALS, [after, limit])).rows;
}

/** How many channels were swapped. */
export async function swapSealedChannelCredentials(
  pool: PgPool,
  changes: SealedChannelCredentialsChange[],
): Promise<number> {
  const result = await pool.query(SWAP_SEALED_CHANNEL_CREDENTIALS, [JSON.stringify(changes)]);
  return result.rowCount ?? 0;
}
