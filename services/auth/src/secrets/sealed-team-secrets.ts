import { keysetSwap, type PgPool } from "@pulsegate/db";

/** A team's sealed HMAC states (current and previous) with the fingerprints they are bound to. */
export type SealedTeamSecretsRow = {
  id: string;
  secret_fingerprint: string;
  secret_sealed: Buffer;
  previous_secret_fingerprint: string | null;
  previous_secret_sealed: Buffer | null;
};

/** Re-sealed states, hex: written only where the row still holds `old` (the current state). */
export type SealedTeamSecretsChange = { id: string; old: string; secret: string; previous: string | null };

/** A page of every team's sealed states, keyset over id. $1 after; $2 limit. */
export const SELECT_SEALED_TEAM_SECRETS = `SELECT id, secret_fingerprint, secret_sealed, previous_secret_fingerprint, previous_secret_sealed
             FROM auth.teams WHERE id > $1 ORDER BY id LIMIT $2`;

/**
 * Swaps each team's sealed states unless its current state changed meanwhile (a rotation sealed it
 * under the current KEK already). $1 the changes as JSON.
 */
export const SWAP_SEALED_TEAM_SECRETS = `UPDATE auth.teams t
            SET secret_sealed = decode(v.secret, 'hex'), previous_secret_sealed = decode(v.previous, 'hex')
           FROM jsonb_to_recordset($1::jsonb) AS v(id text, old text, secret text, previous text)
          WHERE t.id = v.id AND t.secret_sealed = decode(v.old, 'hex')`;

/** The re-seal's page reads and writes over `auth.teams`. */
export const sealedTeamSecrets = (pool: PgPool) =>
  keysetSwap<SealedTeamSecretsRow, SealedTeamSecretsChange>(pool, {
    select: SELECT_SEALED_TEAM_SECRETS,
    swap: SWAP_SEALED_TEAM_SECRETS,
  });
