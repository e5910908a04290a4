// The PrometheusRule of deploy/k8s/components/monitoring as Prometheus itself
// loads it: its spec.groups is a rules file's `groups`. Prometheus (test/e2e/
// prometheus.test.ts) and promtool (prometheus-rules.test.ts, the rule tests
// beside the manifests) read the rules file written here, so what they check
// is what the Prometheus Operator deploys.
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parse, stringify } from "yaml";

const root = resolve(import.meta.dirname, "../..");

export const PROMETHEUS_RULE = "deploy/k8s/components/monitoring/prometheus-rule.yaml";
/** `promtool test rules` files (`*.test.yaml`), each loading RULES_FILE from its own directory. */
export const RULE_TESTS = "deploy/k8s/components/monitoring/rule-tests";
export const RULES_FILE = "pulsegate.rules.yaml";

export type RuleGroup = { name: string; rules: { alert?: string; record?: string; expr: string }[] };

/** The PrometheusRule's groups; throws when the file has none, which no check should take for "nothing to check". */
export function ruleGroups(file = join(root, PROMETHEUS_RULE)): RuleGroup[] {
  const groups = parse(readFileSync(file, "utf8"))?.spec?.groups;
  if (!Array.isArray(groups) || groups.length === 0) throw new Error(`${file}: spec.groups holds no rule group`);
  return groups;
}

/** Every alert's name, in the file's order. */
export function alertNames(groups: readonly RuleGroup[]): string[] {
  return groups.flatMap((group) => (group.rules ?? []).flatMap((rule) => (rule.alert ? [rule.alert] : [])));
}

/** Writes the groups as a Prometheus rules file named RULES_FILE into `dir`; returns its path. */
export function writeRulesFile(dir: string, groups: readonly RuleGroup[] = ruleGroups()): string {
  const path = join(dir, RULES_FILE);
  writeFileSync(path, stringify({ groups }));
  return path;
}
