import type { EntityManager } from "@pulsegate/db";
import { alertsErrors } from "../errors.ts";
import type { AlertRow } from "./alert-row.ts";

/** One alert by id; `lock`: FOR UPDATE, for a status change in the caller's transaction. */
export async function selectAlert(
  em: EntityManager,
  id: string,
  lock: "lock" | "no-lock" = "no-lock",
): Promise<AlertRow> {
  const sql = `SELECT * FROM alerts.alerts WHERE id = ?${lock === "lock" ? " FOR UPDATE" : ""}`;
  const [row] = await em.execute<AlertRow[]>(sql, [id]);
  if (!row) throw alertsErrors.alertNotFound();
  return row;
}
