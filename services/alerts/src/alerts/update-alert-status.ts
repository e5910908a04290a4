import type { AlertStatus } from "@pulsegate/contract/vocabulary";
import type { EntityManager } from "@pulsegate/db";
import type { AlertRow } from "./alert-row.ts";

/** Each later status, with the column that records when; either way no reminder is due any more. */
const UPDATE_ALERT_STATUS: Record<Exclude<AlertStatus, "open">, string> = {
  acknowledged:
    "UPDATE alerts.alerts SET status = 'acknowledged', acknowledged_at = ?, acknowledged_by = ?, next_reminder_at = NULL WHERE id = ? RETURNING *",
  resolved:
    "UPDATE alerts.alerts SET status = 'resolved', resolved_at = ?, resolved_by = ?, next_reminder_at = NULL WHERE id = ? RETURNING *",
};

/** Moves a locked alert on (selectAlert(…, "lock") in the same transaction). */
export async function updateAlertStatus(
  em: EntityManager,
  id: string,
  status: Exclude<AlertStatus, "open">,
  at: Date,
  /** Who did it, as people read it; null: not recorded. */
  by: string | null,
): Promise<AlertRow> {
  const [row] = await em.execute<AlertRow[]>(UPDATE_ALERT_STATUS[status], [at, by, id]);
  return row as AlertRow;
}
