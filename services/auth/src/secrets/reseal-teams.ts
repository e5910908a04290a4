import type { PgPool } from "@pulsegate/db";
import { type Keyring, type ResealCounts, resealInPages } from "@pulsegate/sealing";
import { sealingContext } from "../teams/team-service.ts";
import { resealStates, sealedKekId } from "./seal.ts";

type TeamSecretsRow = {
  id: string;
  secret_fingerprint: string;
  secret_sealed: Buffer;
  previous_secret_fingerprint: string | null;
  previous_secret_sealed: Buffer | null;
};

/**
 * Re-seals every team's HMAC states (current and previous) under the keyring's current KEK. A row
 * changed meanwhile (a rotation) is left alone: the rotation sealed it under the current KEK
 * already. Counts teams.
 */
export async function resealTeams(pool: PgPool, keyring: Keyring): Promise<ResealCounts> {
  const current = keyring.current.id;
  return resealInPages({
    readPage: async (after, limit) =>
      (
        await pool.query<TeamSecretsRow>(
          `SELECT id, secret_fingerprint, secret_sealed, previous_secret_fingerprint, previous_secret_sealed
             FROM auth.teams WHERE id > $1 ORDER BY id LIMIT $2`,
          [after, limit],
        )
      ).rows,
    reseal: (row) => {
      const reseal = (sealed: Buffer, fingerprint: string) =>
        sealedKekId(sealed) === current ? sealed : resealStates(sealed, keyring, sealingContext(row.id, fingerprint));
      const secret = reseal(row.secret_sealed, row.secret_fingerprint);
      const previous =
        row.previous_secret_sealed && row.previous_secret_fingerprint
          ? reseal(row.previous_secret_sealed, row.previous_secret_fingerprint)
          : row.previous_secret_sealed;
      if (secret === row.secret_sealed && previous === row.previous_secret_sealed) return null;
      return {
        id: row.id,
        old: row.secret_sealed.toString("hex"),
        secret: secret.toString("hex"),
        previous: previous ? previous.toString("hex") : null,
      };
    },
    write: async (changes) => {
      const result = await pool.query(
        `UPDATE auth.teams t
            SET secret_sealed = decode(v.secret, 'hex'), previous_secret_sealed = decode(v.previous, 'hex')
           FROM jsonb_to_recordset($1::jsonb) AS v(id text, old text, secret text, previous text)
          WHERE t.id = v.id AND t.secret_sealed = decode(v.old, 'hex')`,
        [JSON.stringify(changes)],
      );
      return result.rowCount ?? 0;
    },
  });
}
