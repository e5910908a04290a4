// Checks of the Grafana dashboard and the PrometheusRule (deploy/k8s/
// components/monitoring) against what the services export: used by
// scripts/check-observability.ts (run by scripts/check-k8s.sh, so CI) and
// its tests. Each check returns findings; none means valid.
import { METRIC_CATALOGUE, seriesNames } from "../../packages/telemetry/src/metric-catalogue.ts";
import { dashboardScopeFindings, KEYWORDS, ruleScopeFindings } from "./promql-scope.ts";

export type Finding = { where: string; message: string };

/** Every series name Prometheus will hold for the catalogue's metrics. */
export const KNOWN_SERIES = new Set(METRIC_CATALOGUE.flatMap(seriesNames));
/** Label names a selector, `by` or `without` may use: the catalogue's, and those every target has. */
export const KNOWN_LABELS = new Set([
  ...METRIC_CATALOGUE.flatMap((entry) => entry.labels),
  "le",
  "job",
  "pod",
  "namespace",
  "instance",
  "service",
  "container",
  "endpoint",
  "otel_scope_name",
  "otel_scope_version",
]);

/**
 * The metric names a PromQL expression reads, and the label names it uses,
 * or a syntax finding: brackets must balance, strings close. Not a full
 * parser: enough to catch a renamed or misspelt metric or label, which is
 * what breaks dashboards and rules silently.
 */
export function readPromql(expr: string): { metrics: string[]; labels: string[]; problem?: string } {
  // Grafana's variables stand for values, not names.
  let text = expr.replace(/\$__\w+|\$\{\w+\}|\$\w+/g, "1m");
  const strings: string[] = [];
  text = text.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, (s) => {
    strings.push(s);
    return '""';
  });
  if (/["'`]/.test(text.replaceAll('""', ""))) return { metrics: [], labels: [], problem: "an unterminated string" };
  const pairs: Record<string, string> = { ")": "(", "]": "[", "}": "{" };
  const stack: string[] = [];
  for (const char of text) {
    if ("([{".includes(char)) stack.push(char);
    else if (char in pairs && stack.pop() !== pairs[char])
      return { metrics: [], labels: [], problem: `an unbalanced ${char}` };
  }
  if (stack.length > 0) return { metrics: [], labels: [], problem: `an unclosed ${stack.at(-1)}` };
  const labels: string[] = [];
  // Label matchers: {name op "value", ...}.
  text = text.replace(/\{([^}]*)\}/g, (_, body: string) => {
    for (const matcher of body.split(",")) {
      const name = /^\s*([a-zA-Z_]\w*)\s*(=~|!~|!=|=)/.exec(matcher)?.[1];
      if (name) labels.push(name);
    }
    return "";
  });
  // Grouping lists: by (a, b), without (...), on (...), ignoring (...).
  text = text.replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\)/g, (_, _kw, list: string) => {
    for (const name of list.split(",").map((s) => s.trim())) if (name) labels.push(name);
    return " ";
  });
  text = text.replace(/\[[^\]]*\]/g, ""); // ranges and subqueries
  const metrics: string[] = [];
  for (const match of text.matchAll(/[a-zA-Z_:][\w:]*/g)) {
    const name = match[0];
    const after = text.slice((match.index ?? 0) + name.length);
    if (/^\s*\(/.test(after) || KEYWORDS.has(name.toLowerCase())) continue; // a function or keyword
    if (/^\d/.test(name)) continue;
    // A number such as 1e3 or a duration such as 5m after a digit.
    const before = text.slice(0, match.index ?? 0);
    if (/[\d.]$/.test(before)) continue;
    metrics.push(name);
  }
  return { metrics, labels };
}

function checkExpression(where: string, expr: unknown): Finding[] {
  if (typeof expr !== "string" || expr.trim() === "") return [{ where, message: "has no expression" }];
  const read = readPromql(expr);
  if (read.problem) return [{ where, message: `expression has ${read.problem}: ${expr}` }];
  const findings: Finding[] = [];
  if (read.metrics.length === 0) findings.push({ where, message: `expression reads no metric: ${expr}` });
  for (const name of read.metrics) {
    if (!KNOWN_SERIES.has(name)) findings.push({ where, message: `reads ${name}, which no service exports` });
  }
  for (const label of read.labels) {
    if (!KNOWN_LABELS.has(label))
      findings.push({ where, message: `uses label ${label}, which no exported metric has` });
  }
  return findings;
}

type Panel = {
  id?: unknown;
  type?: unknown;
  title?: unknown;
  gridPos?: { x?: unknown; y?: unknown; w?: unknown; h?: unknown };
  datasource?: { uid?: unknown } | string;
  targets?: { refId?: unknown; expr?: unknown }[];
  panels?: Panel[];
};

/**
 * A Grafana dashboard (JSON model): identity, layout, a Prometheus datasource variable, a
 * `namespace` variable, every query (on exported metrics, Pulsegate's jobs, that namespace).
 */
export function checkDashboard(file: string, text: string): Finding[] {
  const findings: Finding[] = [];
  let dashboard: {
    uid?: unknown;
    title?: unknown;
    schemaVersion?: unknown;
    panels?: Panel[];
    templating?: { list?: { name?: unknown; type?: unknown; query?: unknown; definition?: unknown }[] };
  };
  try {
    dashboard = JSON.parse(text);
  } catch (error) {
    return [{ where: file, message: `is not JSON: ${(error as Error).message}` }];
  }
  for (const key of ["uid", "title"] as const) {
    if (typeof dashboard[key] !== "string" || dashboard[key] === "")
      findings.push({ where: file, message: `has no ${key}` });
  }
  if (typeof dashboard.uid === "string" && !/^[\w-]{1,40}$/.test(dashboard.uid)) {
    findings.push({ where: file, message: "uid must be 1-40 letters, digits, - or _" });
  }
  if (typeof dashboard.schemaVersion !== "number") findings.push({ where: file, message: "has no schemaVersion" });
  const variables = new Set(
    (dashboard.templating?.list ?? [])
      .filter((variable) => variable.type === "datasource" && variable.query === "prometheus")
      .map((variable) => `\${${String(variable.name)}}`),
  );
  if (variables.size === 0) findings.push({ where: file, message: "has no Prometheus datasource variable" });
  const namespace = (dashboard.templating?.list ?? []).find((variable) => variable.name === "namespace");
  if (namespace?.type !== "query" || !/label_values\(.*,\s*namespace\s*\)/.test(String(namespace.definition ?? ""))) {
    findings.push({ where: file, message: "has no `namespace` query variable (label_values(…, namespace))" });
  }
  const panels = (dashboard.panels ?? []).flatMap((panel) => [panel, ...(panel.panels ?? [])]);
  if (panels.length === 0) findings.push({ where: file, message: "has no panels" });
  const ids = new Set<unknown>();
  for (const panel of panels) {
    const where = `${file} panel ${String(panel.id)} "${String(panel.title)}"`;
    if (typeof panel.id !== "number" || ids.has(panel.id))
      findings.push({ where, message: "needs a unique numeric id" });
    ids.add(panel.id);
    if (typeof panel.title !== "string" || panel.title === "") findings.push({ where, message: "has no title" });
    const { x, y, w, h } = panel.gridPos ?? {};
    if (
      ![x, y, w, h].every((n) => Number.isInteger(n) && (n as number) >= 0) ||
      (w as number) < 1 ||
      (h as number) < 1 ||
      (x as number) + (w as number) > 24
    ) {
      findings.push({ where, message: "gridPos must be whole numbers within Grafana's 24 columns" });
    }
    if (panel.type === "row") continue;
    const uid = typeof panel.datasource === "object" ? panel.datasource?.uid : panel.datasource;
    if (typeof uid !== "string" || !variables.has(uid))
      findings.push({ where, message: "must use the Prometheus datasource variable" });
    const targets = panel.targets ?? [];
    if (targets.length === 0) findings.push({ where, message: "has no query" });
    const refIds = new Set<unknown>();
    for (const target of targets) {
      if (typeof target.refId !== "string" || refIds.has(target.refId))
        findings.push({ where, message: "needs unique refIds" });
      refIds.add(target.refId);
      findings.push(...checkExpression(`${where} query ${String(target.refId)}`, target.expr));
      if (typeof target.expr === "string") {
        for (const message of dashboardScopeFindings(target.expr))
          findings.push({ where: `${where} query ${String(target.refId)}`, message });
      }
    }
  }
  return findings;
}

type Rule = {
  alert?: unknown;
  record?: unknown;
  expr?: unknown;
  for?: unknown;
  labels?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
};

const SEVERITIES = new Set(["critical", "warning", "info"]);

/** A PrometheusRule: named groups, unique alerts with an expression on exported metrics, a severity, a summary and a runbook. */
export function checkRules(
  file: string,
  rule: { spec?: { groups?: { name?: unknown; rules?: Rule[] }[] } },
): Finding[] {
  const findings: Finding[] = [];
  const groups = rule.spec?.groups ?? [];
  if (groups.length === 0) findings.push({ where: file, message: "has no rule groups" });
  const names = new Set<unknown>();
  const alerts = new Set<unknown>();
  for (const group of groups) {
    const at = `${file} group ${String(group.name)}`;
    if (typeof group.name !== "string" || names.has(group.name))
      findings.push({ where: at, message: "needs a unique name" });
    names.add(group.name);
    for (const item of group.rules ?? []) {
      const where = `${at} ${String(item.alert ?? item.record)}`;
      if (typeof item.expr === "string") {
        for (const message of ruleScopeFindings(item.expr)) findings.push({ where, message });
      }
      if (item.record !== undefined) {
        findings.push(...checkExpression(where, item.expr));
        continue;
      }
      if (typeof item.alert !== "string" || !/^[A-Z][A-Za-z0-9]+$/.test(item.alert) || alerts.has(item.alert)) {
        findings.push({ where, message: "needs a unique CamelCase alert name" });
      }
      alerts.add(item.alert);
      findings.push(...checkExpression(where, item.expr));
      if (item.for !== undefined && (typeof item.for !== "string" || !/^(\d+(ms|s|m|h|d|w|y))+$/.test(item.for))) {
        findings.push({ where, message: `for: ${String(item.for)} is not a Prometheus duration` });
      }
      if (!SEVERITIES.has(String(item.labels?.severity)))
        findings.push({ where, message: "needs labels.severity (critical, warning, info)" });
      for (const key of ["summary", "description", "runbook"]) {
        if (typeof item.annotations?.[key] !== "string" || item.annotations[key] === "") {
          findings.push({ where, message: `needs annotations.${key}` });
        }
      }
      const runbook = item.annotations?.runbook;
      if (
        typeof runbook === "string" &&
        typeof item.alert === "string" &&
        !runbook.endsWith(`#${item.alert.toLowerCase()}`)
      ) {
        findings.push({
          where,
          message: `annotations.runbook should point at docs/operations.md#${item.alert.toLowerCase()}`,
        });
      }
    }
  }
  return findings;
}

/** The runbook headings an operations document must have: one per alert. */
export function checkRunbooks(doc: string, docText: string, alertNames: string[]): Finding[] {
  const anchors = new Set(
    [...docText.matchAll(/^#{2,4}\s+(.+)$/gm)].map((m) =>
      (m[1] as string)
        .trim()
        .toLowerCase()
        .replace(/[^\w\s-]/g, "")
        .replace(/\s+/g, "-"),
    ),
  );
  return alertNames
    .filter((name) => !anchors.has(name.toLowerCase()))
    .map((name) => ({ where: doc, message: `has no section for alert ${name} (a heading "${name}")` }));
}
