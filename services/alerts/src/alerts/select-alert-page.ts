import type { EntityManager } from "@pulsegate/db";
import type { AlertRow } from "./alert-row.ts";

/** A team's alerts, newest first, optionally of one status, after a keyset cursor. */
const SELECT_ALERT_PAGE = `
  SELECT * FROM alerts.alerts
   WHERE team_id = ? AND (?::text = '' OR status = ?)
     AND (?::timestamptz IS NULL OR (created_at, id) < (?::timestamptz, ?))
   ORDER BY created_at DESC, id DESC LIMIT ?`;

export function selectAlertPage(
  em: EntityManager,
  query: { teamId: string; status: string; after: { at: string; id: string } | null; limit: number },
): Promise<AlertRow[]> {
  const { teamId, status, after, limit } = query;
  return em.execute<AlertRow[]>(SELECT_ALERT_PAGE, [
    teamId,
    status,
    status,
    after?.at ?? null,
    after?.at ?? null,
    after?.id ?? "",
    limit,
  ]);
}
