import type { AlertView } from "./alert-row.ts";

/**
 * The fold rule: what the triggers of a batch do to the alert of their key (docs/decisions.md,
 * "Triggers"). A fold adds them to the alert's count and moves last seen forward, and changes
 * nothing else. A reopen (the key's alert was resolved within the reopen window) also opens the
 * alert again as a new episode: told in the reopening trigger's words, reminding afresh at its
 * interval (unless a silence holds it), with acknowledgement, resolution and reminders sent
 * forgotten.
 *
 * Written once per column, below; the trigger batch's statements take their SET lists from it.
 * The outbox event of a reopen shows the alert as `reopenedView` says it stands, which the
 * database does not return; trigger-batch.test.ts holds the two equal, column for column.
 */

/** What a reopen gives the alert besides status, times and count: all of it from the reopening trigger. */
export type Episode = {
  title: string;
  description: string;
  severity: AlertView["severity"];
  metadataJson: string | null;
};
export type Reopening = { repeatIntervalSeconds: number | null; silencedBy: string | null; episode: Episode };

/**
 * Per column, its value after a fold and after a reopen, in SQL: `a` is the alert row, `b` the
 * batch's row for it (added, last_seen_at; for a reopen the trigger's repeat, silenced, title,
 * description, severity, metadata). A column without `fold` is kept by a fold.
 */
const COLUMNS: { column: string; fold?: (b: string) => string; reopen: (b: string) => string }[] = [
  {
    column: "occurrence_count",
    fold: (b) => `a.occurrence_count + ${b}.added`,
    reopen: (b) => `a.occurrence_count + ${b}.added`,
  },
  {
    column: "last_seen_at",
    fold: (b) => `GREATEST(a.last_seen_at, ${b}.last_seen_at)`,
    reopen: (b) => `${b}.last_seen_at`,
  },
  { column: "status", reopen: () => "'open'" },
  { column: "acknowledged_at", reopen: () => "NULL" },
  { column: "resolved_at", reopen: () => "NULL" },
  { column: "acknowledged_by", reopen: () => "NULL" },
  { column: "resolved_by", reopen: () => "NULL" },
  { column: "repeat_interval_seconds", reopen: (b) => `${b}.repeat` },
  { column: "next_reminder_at", reopen: (b) => nextReminderSql(`${b}.last_seen_at`, `${b}.repeat`, `${b}.silenced`) },
  { column: "silenced_by", reopen: (b) => `${b}.silenced` },
  { column: "reminders_sent", reopen: () => "0" },
  { column: "title", reopen: (b) => `${b}.title` },
  { column: "description", reopen: (b) => `${b}.description` },
  { column: "severity", reopen: (b) => `${b}.severity` },
  { column: "metadata", reopen: (b) => `${b}.metadata` },
];

/** The SET list of a fold into alert `a` from row `b`. */
export function foldSetSql(b: string): string {
  return COLUMNS.flatMap(({ column, fold }) => (fold ? [`${column} = ${fold(b)}`] : [])).join(", ");
}

/** The SET list of a fold or, where `b.reopen`, a reopen of alert `a` from row `b`. */
export function foldOrReopenSetSql(b: string): string {
  return COLUMNS.map(({ column, fold, reopen }) => {
    const folded = fold ? fold(b) : `a.${column}`;
    const reopened = reopen(b);
    return folded === reopened
      ? `${column} = ${folded}`
      : `${column} = CASE WHEN ${b}.reopen THEN ${reopened} ELSE ${folded} END`;
  }).join(",\n            ");
}

/** When an alert opened (created or reopened) at `at` first reminds: after its interval, unless silenced. */
export function nextReminderSql(at: string, repeat: string, silenced: string): string {
  return `CASE WHEN ${silenced} IS NULL THEN ${at} + make_interval(secs => ${repeat}) END`;
}

/** The same for an alert that is not silenced. */
export function reminderAfter(at: Date, repeatIntervalSeconds: number | null): Date | null {
  return repeatIntervalSeconds === null ? null : new Date(at.getTime() + repeatIntervalSeconds * 1000);
}

/** A fold's last seen: the later of the alert's and the trigger's. */
export function laterOf(current: Date, at: Date): Date {
  return at > current ? at : current;
}

/**
 * The alert as its reopening trigger leaves it (`metadata`: the trigger's metadata parsed), for
 * the reopen's event, which is only written when no silence holds the alert.
 */
export function reopenedView(alert: AlertView, at: Date, reopening: Reopening, metadata: unknown): AlertView {
  const { episode, repeatIntervalSeconds } = reopening;
  return {
    ...alert,
    title: episode.title,
    description: episode.description,
    severity: episode.severity,
    metadata,
    status: "open",
    occurrenceCount: alert.occurrenceCount + 1,
    lastSeenAt: at,
    acknowledgedAt: null,
    resolvedAt: null,
    acknowledgedBy: null,
    resolvedBy: null,
    repeatIntervalSeconds,
    nextReminderAt: reminderAfter(at, repeatIntervalSeconds),
    remindersSent: 0,
    silencedBy: null,
  };
}
