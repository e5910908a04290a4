import type { EntityManager } from "@pulsegate/db";

/**
 * What a team's deletion does at once, in one transaction (docs/decisions.md, "Deleting"): the
 * team is recorded as deleted (the purge removes its rows in batches, purge-deleted-teams.ts), its
 * live channels are deleted and their pending deliveries cancelled (nothing more is sent: at most
 * 50 channels), and its open alerts stop reminding. Its webhooks are refused by auth already (the
 * team is gone there), and go with the purge.
 */
const STATEMENTS = [
  "INSERT INTO alerts.team_deletions (team_id, deleted_at) VALUES (?, ?) ON CONFLICT (team_id) DO NOTHING",
  `UPDATE alerts.deliveries SET status = 'cancelled', last_error = 'team deleted', locked_until = NULL,
          lease_token = NULL, updated_at = ?
    WHERE channel_id IN (SELECT id FROM alerts.channels WHERE team_id = ? AND deleted_at IS NULL)
      AND status = 'pending'`,
  "UPDATE alerts.channels SET deleted_at = ?, updated_at = ? WHERE team_id = ? AND deleted_at IS NULL",
  "UPDATE alerts.alerts SET next_reminder_at = NULL WHERE team_id = ? AND next_reminder_at IS NOT NULL",
] as const;

export async function deleteTeamData(tx: EntityManager, teamId: string, at: Date): Promise<void> {
  const [record, cancel, channels, reminders] = STATEMENTS;
  await tx.execute(record, [teamId, at]);
  await tx.execute(cancel, [at, teamId]);
  await tx.execute(channels, [at, at, teamId]);
  await tx.execute(reminders, [teamId]);
}
