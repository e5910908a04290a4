import type { Severity } from "../severity.ts";

export type AlertStatus = "open" | "acknowledged" | "resolved";
export type AlertSource = "webhook" | "monitor";

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
};

/** A raw `alerts` row as pg returns it. */
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
  first_seen_at: Date;
  last_seen_at: Date;
  acknowledged_at: Date | null;
  resolved_at: Date | null;
  created_at: Date;
};

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
    firstSeenAt: row.first_seen_at,
    lastSeenAt: row.last_seen_at,
    acknowledgedAt: row.acknowledged_at,
    resolvedAt: row.resolved_at,
    createdAt: row.created_at,
  };
}
