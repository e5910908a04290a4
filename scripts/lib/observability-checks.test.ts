import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { checkDashboard, checkRules, checkRunbooks, readPromql } from "./observability-checks.ts";
import { dashboardScopeFindings, ruleScopeFindings, selectorsOf } from "./promql-scope.ts";

const root = resolve(import.meta.dirname, "../..");
const dashboardText = readFileSync(resolve(root, "deploy/k8s/components/monitoring/dashboards/pulsegate.json"), "utf8");
const rule = parse(readFileSync(resolve(root, "deploy/k8s/components/monitoring/prometheus-rule.yaml"), "utf8"));

describe("readPromql", () => {
  it("finds the metrics and labels an expression reads, not its functions, keywords, numbers or values", () => {
    expect(
      readPromql(
        'histogram_quantile(0.99, sum by (le, http_route) (rate(http_server_request_duration_seconds_bucket{job="gateway", http_route=~"/api/.*"}[5m]))) > 0.5',
      ),
    ).toEqual({
      metrics: ["http_server_request_duration_seconds_bucket"],
      labels: ["job", "http_route", "le", "http_route"],
    });
    expect(readPromql("time() - max(pulsegate_monitors_sweep_last_success_timestamp_seconds) > 1e3").metrics).toEqual([
      "pulsegate_monitors_sweep_last_success_timestamp_seconds",
    ]);
    expect(readPromql("sum(rate(x_total[$__rate_interval]))").metrics).toEqual(["x_total"]);
  });

  it("reports unbalanced brackets and open strings", () => {
    expect(readPromql("sum(rate(x[5m])").problem).toMatch(/unclosed \(/);
    expect(readPromql('x{job="a}').problem).toMatch(/unterminated string|unclosed/);
    expect(readPromql("x]").problem).toMatch(/unbalanced ]/);
  });
});

describe("the committed dashboard and rules", () => {
  it("are valid", () => {
    expect(checkDashboard("dashboard", dashboardText)).toEqual([]);
    expect(checkRules("rules", rule)).toEqual([]);
    const alerts = rule.spec.groups.flatMap((group: { rules: { alert: string }[] }) => group.rules.map((r) => r.alert));
    expect(
      checkRunbooks("docs/operations.md", readFileSync(resolve(root, "docs/operations.md"), "utf8"), alerts),
    ).toEqual([]);
  });
});

describe("findings", () => {
  it("name a metric no service exports, an unknown label, a duplicate panel id, a panel off the grid", () => {
    const dashboard = JSON.parse(dashboardText);
    dashboard.panels[1].targets[0].expr = "sum(rate(pulsegate_triggers_totl[5m]))";
    dashboard.panels[2].targets[0].expr = "sum by (team_id) (rate(pulsegate_triggers_total[5m]))";
    dashboard.panels[3].id = dashboard.panels[2].id;
    dashboard.panels[4].gridPos.x = 20;
    const messages = checkDashboard("d", JSON.stringify(dashboard)).map((finding) => finding.message);
    expect(messages).toContain("reads pulsegate_triggers_totl, which no service exports");
    expect(messages).toContain("uses label team_id, which no exported metric has");
    expect(messages).toContain("needs a unique numeric id");
    expect(messages).toContain("gridPos must be whole numbers within Grafana's 24 columns");
  });

  it("name an alert without severity, runbook or valid duration, and a runbook section that is missing", () => {
    const broken = structuredClone(rule);
    const first = broken.spec.groups[0].rules[0];
    first.labels = {};
    first.for = "ten minutes";
    delete first.annotations.runbook;
    broken.spec.groups[0].rules[1].alert = first.alert;
    const messages = checkRules("r", broken).map((finding) => finding.message);
    expect(messages).toContain("needs labels.severity (critical, warning, info)");
    expect(messages).toContain("for: ten minutes is not a Prometheus duration");
    expect(messages).toContain("needs annotations.runbook");
    expect(messages).toContain("needs a unique CamelCase alert name");
    expect(checkRunbooks("doc", "## Something else\n", ["PulsegateOutboxLag"])).toHaveLength(1);
  });
});

describe("scope: Pulsegate's jobs, one namespace at a time", () => {
  it("reads each selector's metric and matchers, not functions, keywords, groupings or durations", () => {
    expect(
      selectorsOf(
        'time() - max by (namespace) (x_seconds{job="pulsegate-monitors", namespace=~"$namespace"} offset 2m) > 1e3 and on (namespace) y',
      ),
    ).toEqual([
      {
        metric: "x_seconds",
        matchers: [
          { name: "job", op: "=", value: "pulsegate-monitors" },
          { name: "namespace", op: "=~", value: "$namespace" },
        ],
      },
      { metric: "y", matchers: [] },
    ]);
  });

  it("holds alerts to Pulsegate's jobs, to a job that exports the metric, and to namespace in every aggregation", () => {
    const scoped =
      'sum by (namespace, job) (rate(rpc_server_call_duration_seconds_count{job=~"pulsegate-(auth|alerts)"}[5m]))';
    expect(ruleScopeFindings(scoped)).toEqual([]);
    expect(ruleScopeFindings('max without (pod) (pulsegate_monitors_spool_depth{job="pulsegate-monitors"})')).toEqual(
      [],
    );
    expect(ruleScopeFindings('sum by (job) (rate(rpc_server_call_duration_seconds_count{job="alerts"}[5m]))')).toEqual([
      expect.stringContaining("must select Pulsegate's job"),
      expect.stringContaining("sum must keep namespace"),
    ]);
    expect(ruleScopeFindings('max(pulsegate_monitors_spool_depth{job="pulsegate-monitors"})')).toEqual([
      expect.stringContaining("max must keep namespace"),
    ]);
    expect(
      ruleScopeFindings('max without (namespace) (pulsegate_monitors_spool_depth{job="pulsegate-monitors"})'),
    ).toHaveLength(1);
    expect(ruleScopeFindings('max by (namespace) (pulsegate_monitors_spool_depth{job="pulsegate-gateway"})')).toEqual([
      "pulsegate_monitors_spool_depth is not exported by gateway (monitors export it)",
    ]);
  });

  it("holds dashboard queries to the namespace variable", () => {
    expect(
      dashboardScopeFindings('max(pulsegate_monitors_spool_depth{job="pulsegate-monitors", namespace=~"$namespace"})'),
    ).toEqual([]);
    expect(dashboardScopeFindings('max(pulsegate_monitors_spool_depth{job="pulsegate-monitors"})')).toEqual([
      'pulsegate_monitors_spool_depth must select namespace=~"$namespace" (the dashboard\'s namespace variable)',
    ]);
    const dashboard = JSON.parse(dashboardText);
    dashboard.templating.list = dashboard.templating.list.filter((v: { name: string }) => v.name !== "namespace");
    expect(checkDashboard("d", JSON.stringify(dashboard)).map((finding) => finding.message)).toEqual([
      "has no `namespace` query variable (label_values(…, namespace))",
    ]);
  });
});
