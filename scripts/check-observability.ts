// `node -C @pulsegate/source scripts/check-observability.ts`: validates the Grafana dashboard and the
// PrometheusRule in deploy/k8s/components/monitoring against the metrics the
// services export (packages/telemetry/src/metric-catalogue.ts) and the runbook
// (docs/operations.md). Run by scripts/check-k8s.sh, so by `npm run check:k8s`
// and CI. Exit status 1 on any finding.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parse } from "yaml";
import { checkDashboard, checkRules, checkRunbooks, type Finding } from "./lib/observability-checks.ts";
import { alertNames, PROMETHEUS_RULE } from "./lib/prometheus-rules.ts";

const root = resolve(import.meta.dirname, "..");
const component = join(root, "deploy/k8s/components/monitoring");
const findings: Finding[] = [];

const dashboards = readdirSync(join(component, "dashboards")).filter((name) => name.endsWith(".json"));
for (const name of dashboards) {
  const file = `deploy/k8s/components/monitoring/dashboards/${name}`;
  findings.push(...checkDashboard(file, readFileSync(join(root, file), "utf8")));
}
if (dashboards.length === 0)
  findings.push({ where: "deploy/k8s/components/monitoring/dashboards", message: "holds no dashboard" });

const rulesFile = PROMETHEUS_RULE;
const rule = parse(readFileSync(join(root, rulesFile), "utf8"));
findings.push(...checkRules(rulesFile, rule));
const alerts = Array.isArray(rule?.spec?.groups) ? alertNames(rule.spec.groups) : [];
findings.push(...checkRunbooks("docs/operations.md", readFileSync(join(root, "docs/operations.md"), "utf8"), alerts));

for (const finding of findings) console.log(`  ERROR ${finding.where}: ${finding.message}`);
console.log(
  `check-observability: ${dashboards.length} dashboard(s), ${alerts.length} alert(s): ${findings.length} errors`,
);
process.exit(findings.length > 0 ? 1 : 0);
