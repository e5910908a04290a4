import { keysetSwap, type PgPool } from "@pulsegate/db";

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

/** The re-seal's page reads and writes over `alerts.channels`. */
export const sealedChannelCredentials = (pool: PgPool) =>
  keysetSwap<SealedChannelCredentialsRow, SealedChannelCredentialsChange>(pool, {
    select: SELECT_SEALED_CHANNEL_CREDENTIALS,
    swap: SWAP_SEALED_CHANNEL_CREDENTIALS,
  });
