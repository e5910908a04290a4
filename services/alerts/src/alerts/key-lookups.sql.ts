/**
 * The look-ups by (team, group key) that the statements of a trigger batch
 * (batch-statements.ts), its dry run (preview-fold.ts) and resolve-by-key
 * (resolve-by-key-statements.ts) share, each written once as SQL text to
 * interpolate. Every one reads the key's `team_id` and `group_key` from the
 * row `k` (the statement's key) and names the alert `a`. Why they are shaped
 * so (OFFSET 0, the "C" collation): see batch-statements.ts.
 */

/**
 * The advisory lock key of the (team, group key) in row `key`: a trigger
 * batch and a resolve-by-key take the same one, so the two serialise on a key.
 */
export function keyLock(key: string): string {
  return `hashtextextended('alerts:' || ${key}.team_id || ':' || ${key}.group_key, 0)`;
}

/** The key's open (or acknowledged) alert, at most one (the unique index of open alerts), as `columns`. */
export function openAlertOfKey(columns: string): string {
  return `SELECT ${columns} FROM alerts.alerts a
         WHERE a.team_id COLLATE "C" = k.team_id AND a.group_key COLLATE "C" = k.group_key
           AND a.status <> 'resolved'
        OFFSET 0`;
}

/**
 * The key's newest alert resolved within its reopen window (`k.reopen_window`
 * seconds, 0 = never, before `k.received_at`), as `alert` (jsonb), looked up
 * only when `onlyWhen` holds.
 */
export function reopenableAlertOfKey(onlyWhen: string): string {
  return `SELECT to_jsonb(a) AS alert FROM alerts.alerts a
         WHERE ${onlyWhen} AND k.reopen_window > 0
           AND a.team_id = k.team_id AND a.group_key = k.group_key AND a.status = 'resolved'
           AND a.resolved_at >= k.received_at - make_interval(secs => k.reopen_window)
         ORDER BY a.resolved_at DESC
         LIMIT 1`;
}

/** The key's newest alert, whatever its status, as `alert` (jsonb), looked up only when `onlyWhen` holds. */
export function latestAlertOfKey(onlyWhen: string): string {
  return `SELECT to_jsonb(a) AS alert FROM alerts.alerts a
         WHERE ${onlyWhen} AND a.team_id = k.team_id AND a.group_key = k.group_key
         ORDER BY a.created_at DESC, a.id DESC
         LIMIT 1`;
}
