import type { EntityManager } from "@pulsegate/db";

/**
 * One batch of incident actions done more than `retentionDays` ago. Pending
 * actions (done_at NULL) and leased ones stay; SKIP LOCKED steps around rows
 * the incident worker holds.
 */
export async function deleteDoneIncidentActions(
  tx: EntityManager,
  batchSize: number,
  retentionDays: number,
): Promise<number> {
  const result = await tx.execute<{ affectedRows: number }>(
    `DELETE FROM monitors.incident_actions WHERE id IN (
       SELECT id FROM monitors.incident_actions
        WHERE done_at < now() - make_interval(days => ?)
          AND (lease_until IS NULL OR lease_until <= now())
        ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED)`,
    [retentionDays, batchSize],
    "run",
  );
  return result.affectedRows;
}
