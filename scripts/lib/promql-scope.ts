// Whether a PromQL expression reads Pulsegate's series only, one installation at a time. A
// Prometheus of a shared cluster holds every team's `job="gateway"` and every namespace's
// Pulsegate: alert expressions select Pulsegate's jobs (pulsegate-<service>, as the ServiceMonitor
// names them) and keep `namespace` in every aggregation, so each namespace alerts on its own and
// the alert says which; dashboard queries select the jobs and the `$namespace` variable.
import { METRIC_CATALOGUE, seriesNames } from "../../packages/telemetry/src/metric-catalogue.ts";

/** PromQL words that can stand where a metric name would: not series. */
export const KEYWORDS = new Set([
  "by",
  "without",
  "on",
  "ignoring",
  "group_left",
  "group_right",
  "bool",
  "offset",
  "and",
  "or",
  "unless",
  "inf",
  "nan",
]);

export type Matcher = { name: string; op: string; value: string };
export type Selector = { metric: string; matchers: Matcher[] };

const AGGREGATIONS =
  /\b(sum|min|max|avg|group|stddev|stdvar|count|count_values|bottomk|topk|quantile|limitk|limit_ratio)\s*(?:(by|without)\s*\(([^)]*)\)\s*)?\(/g;
/** The services that export each series, from the metric catalogue. */
const EXPORTERS = new Map(
  METRIC_CATALOGUE.flatMap((entry) => seriesNames(entry).map((name) => [name, entry.services as readonly string[]])),
);

/** Strings out of the way (each a placeholder "§N"), so that no brace or name inside one is read. */
function mask(expr: string): { text: string; strings: string[] } {
  const strings: string[] = [];
  const text = expr.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, (s) => {
    strings.push(s.slice(1, -1));
    return `"§${strings.length - 1}"`;
  });
  return { text, strings };
}

/** Every vector selector of an expression: the metric it names and its label matchers. */
export function selectorsOf(expr: string): Selector[] {
  const { text: masked, strings } = mask(expr);
  const text = masked
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, " ")
    .replace(/\[[^\]]*\]/g, "");
  const selectors: Selector[] = [];
  for (const match of text.matchAll(/([a-zA-Z_:][\w:]*)(\s*\{([^}]*)\})?/g)) {
    const metric = match[1] as string;
    const after = text.slice((match.index ?? 0) + match[0].length);
    const before = text.slice(0, match.index ?? 0);
    if (!match[2] && /^\s*\(/.test(after)) continue; // a function
    if (KEYWORDS.has(metric.toLowerCase()) || /[\d.]$/.test(before)) continue; // a keyword, a duration
    const matchers = (match[3] ?? "")
      .split(",")
      .map((m) => /^\s*([a-zA-Z_]\w*)\s*(=~|!~|!=|=)\s*"§(\d+)"\s*$/.exec(m))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => ({ name: m[1] as string, op: m[2] as string, value: strings[Number(m[3])] ?? "" }));
    selectors.push({ metric, matchers });
  }
  return selectors;
}

/** Each selector names Pulsegate's job(s) (`pulsegate-…`), and an exact job exports the metric. */
function jobFindings(expr: string): string[] {
  const problems: string[] = [];
  for (const { metric, matchers } of selectorsOf(expr)) {
    const job = matchers.find((m) => m.name === "job" && (m.op === "=" || m.op === "=~"));
    if (!job?.value.startsWith("pulsegate-")) {
      problems.push(
        `${metric} must select Pulsegate's job (job="pulsegate-<service>" or job=~"pulsegate-…"): another Service of the same name shares an unprefixed job`,
      );
      continue;
    }
    const service = job.value.slice("pulsegate-".length);
    const exporters = EXPORTERS.get(metric);
    if (job.op === "=" && exporters && !exporters.includes(service)) {
      problems.push(`${metric} is not exported by ${service} (${exporters.join(", ")} export it)`);
    }
  }
  return problems;
}

/** An alert or recording rule: Pulsegate's jobs, and `namespace` kept by every aggregation. */
export function ruleScopeFindings(expr: string): string[] {
  const problems = jobFindings(expr);
  const { text } = mask(expr);
  for (const match of text.matchAll(AGGREGATIONS)) {
    const [, operator, clause, list] = match;
    const labels = (list ?? "").split(",").map((label) => label.trim());
    const keeps =
      clause === "by" ? labels.includes("namespace") : clause === "without" && !labels.includes("namespace");
    if (!keeps) {
      problems.push(
        `${operator} must keep namespace (${operator} by (namespace, …)): one namespace's series would hide another's, and the alert would not say which`,
      );
    }
  }
  return problems;
}

/** A dashboard query: Pulsegate's jobs, and the namespace the `namespace` variable names. */
export function dashboardScopeFindings(expr: string): string[] {
  const problems = jobFindings(expr);
  for (const { metric, matchers } of selectorsOf(expr)) {
    if (!matchers.some((m) => m.name === "namespace" && (m.op === "=" || m.op === "=~") && m.value === "$namespace")) {
      problems.push(`${metric} must select namespace=~"$namespace" (the dashboard's namespace variable)`);
    }
  }
  return problems;
}
