import type { AlertSource, AlertStatus, Severity } from "@pulsegate/contract/vocabulary";
import { rowDate, rowDateOrNull } from "@pulsegate/db";

/** An alert as the API shows it. */
export type AlertView = {
  id: string;
  teamId: string;
  status: AlertStatus;
  groupKey: string | null;
  title: string;
  description: string;
  severity: Severity;
  occurrenceCount: number;
  source: AlertSource;
  sourceId: string;
  metadata: unknown;
  firstSeenAt: Date;
  lastSeenAt: Date;
  acknowledgedAt: Date | null;
  resolvedAt: Date | null;
  createdAt: Date;
  /** Reminders: the interval, when the next goes out (null: none will), how many went. */
  repeatIntervalSeconds?: number | null;
  nextReminderAt?: Date | null;
  remindersSent?: number;
  /** The silence the alert was created or last reopened under (nobody was notified); null: none. */
  silencedBy?: string | null;
  /** Who acknowledged and who resolved it, as people read it; null: not recorded. */
  acknowledgedBy?: string | null;
  resolvedBy?: string | null;
};

/** A raw `alerts` row as MikroORM's raw queries return it (timestamps may come back as text). */
export type AlertRow = {
  id: string;
  team_id: string;
  status: AlertStatus;
  group_key: string | null;
  title: string;
  description: string;
  severity: Severity;
  occurrence_count: number;
  source: AlertSource;
  source_id: string;
  metadata: unknown;
  first_seen_at: Date | string;
  last_seen_at: Date | string;
  acknowledged_at: Date | string | null;
  resolved_at: Date | string | null;
  created_at: Date | string;
  repeat_interval_seconds?: number | null;
  next_reminder_at?: Date | string | null;
  reminders_sent?: number;
  silenced_by?: string | null;
  acknowledged_by?: string | null;
  resolved_by?: string | null;
};

/** The columns an AlertRow holds, in table order. */
const ALERT_COLUMN_NAMES = [
  "id",
  "team_id",
  "status",
  "group_key",
  "title",
  "description",
  "severity",
  "occurrence_count",
  "source",
  "source_id",
  "metadata",
  "first_seen_at",
  "last_seen_at",
  "acknowledged_at",
  "resolved_at",
  "created_at",
  "repeat_interval_seconds",
  "next_reminder_at",
  "reminders_sent",
  "silenced_by",
  "acknowledged_by",
  "resolved_by",
] as const satisfies readonly (keyof AlertRow)[];

// An AlertRow field missing from the list fails to compile here.
const everyColumnNamed: Exclude<keyof AlertRow, (typeof ALERT_COLUMN_NAMES)[number]> extends never ? true : never =
  true;
void everyColumnNamed;

/**
 * The select list of a whole alert, for named statements (`a` qualifies each column). Not `*`: a
 * prepared statement's result type is fixed when a connection prepares it, so one over `*` fails
 * (0A000 "cached plan must not change result type") on every connection that prepared it once a
 * migration adds a column (docs/decisions.md, "Migrations: expand, then contract").
 */
export function alertColumns(alias?: string): string {
  return ALERT_COLUMN_NAMES.map((column) => (alias ? `${alias}.${column}` : column)).join(", ");
}

export function alertFromRow(row: AlertRow): AlertView {
  return {
    id: row.id,
    teamId: row.team_id,
    status: row.status,
    groupKey: row.group_key,
    title: row.title,
    description: row.description,
    severity: row.severity,
    occurrenceCount: row.occurrence_count,
    source: row.source,
    sourceId: row.source_id,
    metadata: row.metadata,
    firstSeenAt: rowDate(row.first_seen_at),
    lastSeenAt: rowDate(row.last_seen_at),
    acknowledgedAt: rowDateOrNull(row.acknowledged_at),
    resolvedAt: rowDateOrNull(row.resolved_at),
    createdAt: rowDate(row.created_at),
    repeatIntervalSeconds: row.repeat_interval_seconds ?? null,
    nextReminderAt: row.next_reminder_at ? rowDate(row.next_reminder_at) : null,
    remindersSent: row.reminders_sent ?? 0,
    silencedBy: row.silenced_by ?? null,
    acknowledgedBy: row.acknowledged_by ?? null,
    resolvedBy: row.resolved_by ?? null,
  };
}
