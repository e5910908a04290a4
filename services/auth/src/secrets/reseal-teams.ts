import type { PgPool } from "@pulsegate/db";
import type { Keyring } from "@pulsegate/sealing";
import { sealingContext } from "../teams/team-service.ts";
import { resealStates, sealedKekId } from "./seal.ts";

export type ResealCounts = { resealed: number; alreadyCurrent: number };

const PAGE = 1_000;

/**
 * Re-seals every team's HMAC states (current and previous) under the keyring's
 * current KEK, a page at a time, each page one statement. A row changed
 * meanwhile (a rotation) is left alone: the rotation sealed it under the
 * current KEK already. Counts teams.
 */
export async function resealTeams(pool: PgPool, keyring: Keyring): Promise<ResealCounts> {
  const counts: ResealCounts = { resealed: 0, alreadyCurrent: 0 };
  const current = keyring.current.id;
  let after = "";
  for (;;) {
    const { rows } = await pool.query<{
      id: string;
      secret_fingerprint: string;
      secret_sealed: Buffer;
      previous_secret_fingerprint: string | null;
      previous_secret_sealed: Buffer | null;
    }>(
      `SELECT id, secret_fingerprint, secret_sealed, previous_secret_fingerprint, previous_secret_sealed
         FROM auth.teams WHERE id > $1 ORDER BY id LIMIT $2`,
      [after, PAGE],
    );
    const changes = [];
    for (const row of rows) {
      const reseal = (sealed: Buffer, fingerprint: string) =>
        sealedKekId(sealed) === current ? sealed : resealStates(sealed, keyring, sealingContext(row.id, fingerprint));
      const secret = reseal(row.secret_sealed, row.secret_fingerprint);
      const previous =
        row.previous_secret_sealed && row.previous_secret_fingerprint
          ? reseal(row.previous_secret_sealed, row.previous_secret_fingerprint)
          : row.previous_secret_sealed;
      if (secret === row.secret_sealed && previous === row.previous_secret_sealed) {
        counts.alreadyCurrent++;
        continue;
      }
      changes.push({
        id: row.id,
        old: row.secret_sealed.toString("hex"),
        secret: secret.toString("hex"),
        previous: previous ? previous.toString("hex") : null,
      });
    }
    if (changes.length > 0) {
      const result = await pool.query(
        `UPDATE auth.teams t
            SET secret_sealed = decode(v.secret, 'hex'), previous_secret_sealed = decode(v.previous, 'hex')
           FROM jsonb_to_recordset($1::jsonb) AS v(id text, old text, secret text, previous text)
          WHERE t.id = v.id AND t.secret_sealed = decode(v.old, 'hex')`,
        [JSON.stringify(changes)],
      );
      counts.resealed += result.rowCount ?? 0;
    }
    const last = rows.at(-1);
    if (!last || rows.length < PAGE) return counts;
    after = last.id;
  }
}
