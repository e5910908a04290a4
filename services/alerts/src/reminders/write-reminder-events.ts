import { type PgClient, run, statement } from "@pulsegate/db";

/** `alert.reminder` outbox events, in the order given. $1 team ids; $2 alert ids; $3 payloads; $4 created at. */
export const WRITE_REMINDER_EVENTS = statement(
  "alerts-write-reminders",
  `INSERT INTO alerts.outbox (team_id, alert_id, event_type, payload, created_at)
   SELECT e.team_id, e.alert_id, 'alert.reminder', e.payload, $4
     FROM unnest($1::text[], $2::text[], $3::jsonb[]) WITH ORDINALITY AS e(team_id, alert_id, payload, ord)
    ORDER BY e.ord`,
);

export type ReminderEvent = { teamId: string; alertId: string /** JSON text. */; payload: string };

export async function writeReminderEvents(client: PgClient, events: ReminderEvent[], at: Date): Promise<void> {
  await run(client, WRITE_REMINDER_EVENTS, [
    events.map((event) => event.teamId),
    events.map((event) => event.alertId),
    events.map((event) => event.payload),
    at,
  ]);
}
