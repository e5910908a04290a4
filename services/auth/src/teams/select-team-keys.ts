import type { EntityManager } from "@pulsegate/db";

/** Timestamps are read as epoch milliseconds: the ORM's connection may hand timestamptz back as text. */
export type Millis = number | string;

/** A team's sealed keys as the directory reads them (`auth.teams`, the columns it needs). */
export type TeamKeysRow = {
  id: string;
  subscription_expires_at: Millis | null;
  alert_quota_monthly: number;
  heartbeat_quota_monthly: number;
  secret_fingerprint: string;
  secret_sealed: Buffer;
  previous_secret_fingerprint: string | null;
  previous_secret_sealed: Buffer | null;
  previous_secret_valid_until: Millis | null;
  updated_at: Millis;
};

const millis = (column: string) => `(extract(epoch FROM ${column}) * 1000)::float8 AS ${column}`;
const COLUMNS = `id, ${millis("subscription_expires_at")}, alert_quota_monthly, heartbeat_quota_monthly,
  secret_fingerprint, secret_sealed, previous_secret_fingerprint, previous_secret_sealed,
  ${millis("previous_secret_valid_until")}, ${millis("updated_at")}`;

/** A page of teams by id. `?`: the last id of the previous page ('' for the first), page size. */
export const SELECT_TEAM_KEYS_BY_ID = `SELECT ${COLUMNS} FROM auth.teams WHERE id > ? ORDER BY id LIMIT ?`;

/** One team. `?`: its id. */
export const SELECT_TEAM_KEYS_OF = `SELECT ${COLUMNS} FROM auth.teams WHERE id = ?`;

/**
 * A page of teams by last change, keyset over (updated_at, id) with the time as exact text
 * (`updated_key`): a page boundary inside one timestamp (a bulk update gives thousands of rows the
 * same one) neither loops nor skips. `?`: the previous page's last updated_key and id, page size.
 */
export const SELECT_TEAM_KEYS_BY_CHANGE = `SELECT ${COLUMNS}, t.updated_at::text AS updated_key FROM auth.teams t
          WHERE (t.updated_at, t.id) > (?::timestamptz, ?) ORDER BY t.updated_at, t.id LIMIT ?`;

export function selectTeamKeysById(em: EntityManager, after: string, limit: number): Promise<TeamKeysRow[]> {
  return em.getConnection().execute<TeamKeysRow[]>(SELECT_TEAM_KEYS_BY_ID, [after, limit]);
}

export function selectTeamKeysOf(em: EntityManager, teamId: string): Promise<TeamKeysRow[]> {
  return em.getConnection().execute<TeamKeysRow[]>(SELECT_TEAM_KEYS_OF, [teamId]);
}

export function selectTeamKeysByChange(
  em: EntityManager,
  after: { at: string; id: string },
  limit: number,
): Promise<(TeamKeysRow & { updated_key: string })[]> {
  return em
    .getConnection()
    .execute<(TeamKeysRow & { updated_key: string })[]>(SELECT_TEAM_KEYS_BY_CHANGE, [after.at, after.id, limit]);
}
