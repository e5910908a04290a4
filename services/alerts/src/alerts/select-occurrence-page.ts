import type { AlertSource, Severity } from "@pulsegate/contract/vocabulary";
import { type EntityManager, rowDate } from "@pulsegate/db";

export type OccurrenceView = {
  id: string;
  alertId: string;
  outcome: string;
  source: AlertSource;
  sourceId: string;
  title: string;
  description: string;
  severity: Severity;
  metadata: unknown;
  receivedAt: Date;
};

/** A row of `alerts.occurrences` (bigint ids as text; timestamps may come back as text from the embedded database). */
type OccurrenceRow = {
  id: string;
  alert_id: string;
  outcome: string;
  source: AlertSource;
  source_id: string;
  title: string;
  description: string;
  severity: Severity;
  metadata: unknown;
  received_at: Date | string;
};

/** An alert's occurrences, newest first, after a cursor (the last id of the previous page). */
const SELECT_OCCURRENCE_PAGE = `
  SELECT id::text AS id, alert_id, outcome, source, source_id, title, description, severity, metadata, received_at
    FROM alerts.occurrences WHERE alert_id = ? AND (?::bigint IS NULL OR id < ?::bigint)
   ORDER BY occurrences.id DESC LIMIT ?`;

export async function selectOccurrencePage(
  em: EntityManager,
  query: { alertId: string; after: string | null; limit: number },
): Promise<OccurrenceView[]> {
  const { alertId, after, limit } = query;
  const rows = await em.execute<OccurrenceRow[]>(SELECT_OCCURRENCE_PAGE, [alertId, after, after, limit]);
  return rows.map((row) => ({
    id: row.id,
    alertId: row.alert_id,
    outcome: row.outcome,
    source: row.source,
    sourceId: row.source_id,
    title: row.title,
    description: row.description,
    severity: row.severity,
    metadata: row.metadata,
    receivedAt: rowDate(row.received_at),
  }));
}
