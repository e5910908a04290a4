import type { PgPool } from "@pulsegate/db";
import { withTimeout } from "@pulsegate/runtime/lifecycle";
import type { Logger } from "@pulsegate/runtime/logger";
import { metrics, observableGaugeOf } from "@pulsegate/telemetry";
import { type AlertsStateRow, selectAlertsState } from "./select-alerts-state.ts";

const meter = metrics.getMeter("pulsegate-alerts");

/** A scrape never waits longer than this for the database. */
const QUERY_TIMEOUT_MS = 2_000;

/**
 * Observable gauges of the alerts schema (Prometheus:
 * pulsegate_alerts_open{status}, pulsegate_alerts_outbox_backlog{stage},
 * pulsegate_alerts_outbox_oldest_age_seconds{stage}), from one statement
 * (select-alerts-state.ts). They are the database's numbers, not this
 * replica's: take max() across replicas. The query runs once per
 * scrape, outside any span (it makes no trace); a failed or slow one leaves
 * the gauges out of that scrape rather than stalling it.
 */
export function observeAlerts(pool: PgPool, log: Logger): void {
  const open = observableGaugeOf(meter, "pulsegate.alerts.open");
  const backlog = observableGaugeOf(meter, "pulsegate.alerts.outbox.backlog");
  const oldest = observableGaugeOf(meter, "pulsegate.alerts.outbox.oldest.age.seconds");
  meter.addBatchObservableCallback(
    async (observer) => {
      let rows: AlertsStateRow[];
      try {
        rows = await withTimeout(selectAlertsState(pool), QUERY_TIMEOUT_MS);
      } catch (error) {
        log.debug({ err: error }, "alerts metrics: state not read");
        return;
      }
      const byStatus = new Map([
        ["open", 0],
        ["acknowledged", 0],
      ]);
      for (const row of rows) {
        if (row.kind === "alerts") byStatus.set(row.label, row.count);
        else {
          observer.observe(backlog, row.count, { stage: row.label });
          observer.observe(oldest, row.oldest_age_seconds ?? 0, { stage: row.label });
        }
      }
      for (const [status, count] of byStatus) observer.observe(open, count, { status });
    },
    [open, backlog, oldest],
  );
}
