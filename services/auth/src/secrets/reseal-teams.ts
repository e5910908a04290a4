import type { PgPool } from "@pulsegate/db";
import { type Keyring, type ResealCounts, resealInPages, sealedValueKekId } from "@pulsegate/sealing";
import { resealStates } from "./seal.ts";
import { sealedTeamSecrets } from "./sealed-team-secrets.ts";
import { sealingContext } from "./sealing-context.ts";

/**
 * Re-seals every team's HMAC states (current and previous) under the keyring's current KEK. A row
 * changed meanwhile (a rotation) is left alone: the rotation sealed it under the current KEK
 * already. Counts teams.
 */
export async function resealTeams(pool: PgPool, keyring: Keyring): Promise<ResealCounts> {
  const current = keyring.current.id;
  return resealInPages({
    ...sealedTeamSecrets(pool),
    reseal: (row) => {
      const reseal = (sealed: Buffer, fingerprint: string) =>
        sealedValueKekId(sealed) === current
          ? sealed
          : resealStates(sealed, keyring, sealingContext(row.id, fingerprint));
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
  });
}
