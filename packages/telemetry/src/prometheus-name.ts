/**
 * How an OpenTelemetry instrument's name becomes a Prometheus name. Prometheus
 * names carry their unit (`_seconds`, `_bytes`, `_ratio`) and counters end in
 * `_total`. The exporter adds `_total` and turns dots into underscores, but not
 * the unit: an instrument whose name lacks it is renamed by a view
 * (metric-views.ts) to `nameWithUnit`.
 */
const UNIT_SUFFIXES: Record<string, string> = { s: "seconds", By: "bytes", "1": "ratio" };

/** The exporter's sanitising: anything but letters, digits and `_` becomes `_`, runs of `_` collapse. */
function sanitize(name: string): string {
  return name.replace(/[^a-z0-9_]/gi, "_").replace(/_{2,}/g, "_");
}

/** The instrument's name ending in its unit (unchanged when it already does, or the unit has no suffix). */
export function nameWithUnit(instrument: string, unit: string | undefined): string {
  const suffix = unit === undefined ? undefined : UNIT_SUFFIXES[unit];
  return suffix === undefined || sanitize(instrument).endsWith(`_${suffix}`) ? instrument : `${instrument}.${suffix}`;
}

/** The name Prometheus scrapes (a histogram's series add _bucket, _sum and _count). */
export function prometheusName(metric: { instrument: string; type: string; unit?: string }): string {
  const name = sanitize(nameWithUnit(metric.instrument, metric.unit));
  return metric.type === "counter" && !name.endsWith("_total") ? `${name}_total` : name;
}
