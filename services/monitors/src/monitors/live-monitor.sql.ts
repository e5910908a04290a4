/**
 * A monitor that is neither deleted nor of a deleted team (docs/decisions.md, "Deleting"): every
 * look-up by id, ping URL, badge or team answers only these, so a delete is seen at once while
 * its rows are removed in the background. `alias` names the monitors table in the statement.
 */
export function liveMonitor(alias: string): string {
  return `${alias}.deleted_at IS NULL
     AND NOT EXISTS (SELECT 1 FROM monitors.team_deletions gone WHERE gone.team_id = ${alias}.team_id)`;
}
