// `npm run prometheus-rules [-- DIR]`: writes the PrometheusRule's groups
// (deploy/k8s/components/monitoring/prometheus-rule.yaml) as a Prometheus rules
// file, DIR/pulsegate.rules.yaml: for a Prometheus run without the Prometheus
// Operator (rule_files), and, by default into the rule tests' directory, for
// `promtool test rules` (docs/integrations.md, Prometheus).
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { RULE_TESTS, writeRulesFile } from "./lib/prometheus-rules.ts";

const dir = resolve(process.argv[2] ?? resolve(import.meta.dirname, "..", RULE_TESTS));
mkdirSync(dir, { recursive: true });
console.log(`wrote ${writeRulesFile(dir)}`);
