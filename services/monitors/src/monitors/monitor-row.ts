import type { MonitorStatus, PingStatus, Severity, SignatureScheme } from "@pulsegate/contract/vocabulary";
import { rowDate, rowDateOrNull, rowTextArray } from "@pulsegate/db";
import type { Schedule } from "./schedule.ts";

/** A monitor as the service hands it out. */
export type MonitorView = {
  id: string;
  teamId: string;
  pingUrl: string;
  name: string;
  status: MonitorStatus;
  monitoringActive: boolean;
  intervalSeconds: number;
  graceSeconds: number;
  severity: Severity;
  reopenWindowSeconds: number;
  lastPingAt: Date | null;
  lastPingStatus: PingStatus | null;
  lastReason: string | null;
  nextDueAt: Date | null;
  incidentOpen: boolean;
  openAlertIds: string[];
  alertQuotaMonthly: number;
  /** A cron schedule instead of the interval; null for interval monitors. */
  schedule: Schedule | null;
  maxDurationSeconds: number | null;
  /** When the open run started; null when no run is open. */
  runStartedAt: Date | null;
  lastDurationMs: number | null;
  /** The path token of the public status badge. */
  badgeToken: string;
  /** Reminders while the incident's alert stays open and unacknowledged; null: none. */
  repeatIntervalSeconds: number | null;
  /** Replay protection: pings sign "<X-Webhook-Timestamp>.<body>", within 300 s. */
  requireTimestamp: boolean;
  /** How pings are signed: X-Webhook-Signature (pulsegate) or Standard Webhooks, with the team's secret either way. */
  signatureScheme: SignatureScheme;
  createdAt: Date;
};

/** A raw `monitors.monitors` row (timestamps may come back as text from the embedded database). */
export type MonitorRow = {
  id: string;
  team_id: string;
  ping_url: string;
  name: string;
  status: MonitorStatus;
  monitoring_active: boolean;
  interval_seconds: number;
  grace_seconds: number;
  severity: Severity;
  reopen_window_seconds: number;
  last_ping_at: Date | string | null;
  last_ping_status: PingStatus | null;
  last_reason: string | null;
  next_due_at: Date | string | null;
  incident_open: boolean;
  open_alert_ids: string[] | string | null;
  alert_quota_monthly: number;
  schedule: string | null;
  timezone: string | null;
  max_duration_seconds: number | null;
  run_started_at: Date | string | null;
  last_duration_ms: number | string | null;
  badge_token: string;
  repeat_interval_seconds?: number | null;
  require_timestamp?: boolean;
  signature_scheme?: SignatureScheme;
  created_at: Date | string;
};

/** The columns a MonitorRow holds (all of the table's but updated_at), in table order. */
const MONITOR_COLUMN_NAMES = [
  "id",
  "team_id",
  "ping_url",
  "name",
  "status",
  "monitoring_active",
  "interval_seconds",
  "grace_seconds",
  "severity",
  "reopen_window_seconds",
  "last_ping_at",
  "last_ping_status",
  "last_reason",
  "next_due_at",
  "incident_open",
  "open_alert_ids",
  "alert_quota_monthly",
  "created_at",
  "schedule",
  "timezone",
  "max_duration_seconds",
  "run_started_at",
  "last_duration_ms",
  "badge_token",
  "repeat_interval_seconds",
  "require_timestamp",
  "signature_scheme",
] as const satisfies readonly (keyof MonitorRow)[];

// A MonitorRow field missing from the list fails to compile here.
const everyColumnNamed: Exclude<keyof MonitorRow, (typeof MONITOR_COLUMN_NAMES)[number]> extends never ? true : never =
  true;
void everyColumnNamed;

/**
 * The select list of a whole monitor, for named statements (`m` qualifies each column). Not `*`: a
 * prepared statement's result type is fixed when a connection prepares it, so one over `*` fails
 * (0A000 "cached plan must not change result type") on every connection that prepared it once a
 * migration adds a column — in every process still running while the migrate Job runs
 * (docs/decisions.md, "Migrations: expand, then contract").
 */
export function monitorColumns(alias?: string): string {
  return MONITOR_COLUMN_NAMES.map((column) => (alias ? `${alias}.${column}` : column)).join(", ");
}

export function monitorFromRow(row: MonitorRow): MonitorView {
  return {
    id: row.id,
    teamId: row.team_id,
    pingUrl: row.ping_url,
    name: row.name,
    status: row.status,
    monitoringActive: row.monitoring_active,
    intervalSeconds: row.interval_seconds,
    graceSeconds: row.grace_seconds,
    severity: row.severity,
    reopenWindowSeconds: row.reopen_window_seconds,
    lastPingAt: rowDateOrNull(row.last_ping_at),
    lastPingStatus: row.last_ping_status,
    lastReason: row.last_reason,
    nextDueAt: rowDateOrNull(row.next_due_at),
    incidentOpen: row.incident_open,
    openAlertIds: rowTextArray(row.open_alert_ids),
    alertQuotaMonthly: row.alert_quota_monthly,
    schedule: row.schedule === null ? null : { expression: row.schedule, timezone: row.timezone ?? "UTC" },
    maxDurationSeconds: row.max_duration_seconds ?? null,
    runStartedAt: rowDateOrNull(row.run_started_at ?? null),
    // bigint arrives as text from pg.
    lastDurationMs:
      row.last_duration_ms === null || row.last_duration_ms === undefined ? null : Number(row.last_duration_ms),
    badgeToken: row.badge_token,
    repeatIntervalSeconds: row.repeat_interval_seconds ?? null,
    requireTimestamp: row.require_timestamp ?? false,
    signatureScheme: row.signature_scheme ?? "pulsegate",
    createdAt: rowDate(row.created_at),
  };
}
