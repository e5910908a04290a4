// What the rolling-upgrade test reads back from the database: what was stored, by the tag each
// request carried, and which notification events each channel was due.
import type pg from "pg";

/** How many rows carry each tag in their metadata: triggers as occurrences, pings as pings. */
export async function storedByTag(
  db: pg.Pool,
  teamId: string,
): Promise<Record<"trigger" | "ping", Map<string, number>>> {
  const count = async (sql: string) => {
    const rows = (await db.query<{ tag: string; n: string }>(sql, [teamId])).rows;
    return new Map(rows.map((row) => [row.tag, Number(row.n)]));
  };
  return {
    trigger: await count(
      "SELECT metadata->>'tag' AS tag, count(*) AS n FROM alerts.occurrences WHERE team_id = $1 AND source = 'webhook' GROUP BY 1",
    ),
    ping: await count(
      "SELECT metadata->>'tag' AS tag, count(*) AS n FROM monitors.pings WHERE team_id = $1 GROUP BY 1",
    ),
  };
}

/**
 * Alerts whose rows disagree: an occurrence count other than their occurrences, other than one
 * alert.created event, or an alert.reopened event for other than each reopening.
 */
export async function inconsistentAlerts(db: pg.Pool, teamId: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT a.id FROM alerts.alerts a
      WHERE a.team_id = $1 AND (
        a.occurrence_count <> (SELECT count(*) FROM alerts.occurrences o WHERE o.alert_id = a.id)
        OR (SELECT count(*) FROM alerts.outbox e WHERE e.alert_id = a.id AND e.event_type = 'alert.created') <> 1
        OR (SELECT count(*) FROM alerts.outbox e WHERE e.alert_id = a.id AND e.event_type = 'alert.reopened') <>
           (SELECT count(*) FROM alerts.occurrences o WHERE o.alert_id = a.id AND o.outcome = 'reopened'))`,
    [teamId],
  );
  return rows.map((row) => row.id);
}

export async function reopenings(db: pg.Pool, teamId: string): Promise<number> {
  const { rows } = await db.query<{ n: string }>(
    "SELECT count(*) AS n FROM alerts.occurrences WHERE team_id = $1 AND outcome = 'reopened'",
    [teamId],
  );
  return Number(rows[0]?.n ?? 0);
}

/**
 * The event ids (`evt_<outbox id>`, as deliveries carry them) of every alert.created and
 * alert.reopened a channel was due: those written after it existed (a second's margin for its own
 * commit: an event expanded before that sees no such channel).
 */
export async function eventsDue(db: pg.Pool, teamId: string, channelName: string): Promise<string[]> {
  const { rows } = await db.query<{ event: string }>(
    `SELECT 'evt_' || e.id AS event FROM alerts.outbox e JOIN alerts.channels c USING (team_id)
      WHERE e.team_id = $1 AND c.name = $2 AND e.event_type IN ('alert.created', 'alert.reopened')
        AND e.created_at > c.created_at + interval '1 second'`,
    [teamId, channelName],
  );
  return rows.map((row) => row.event);
}
