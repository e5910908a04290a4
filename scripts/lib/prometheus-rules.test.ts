import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { alertNames, RULE_TESTS, RULES_FILE, ruleGroups, writeRulesFile } from "./prometheus-rules.ts";

const root = resolve(import.meta.dirname, "../..");
const testFiles = readdirSync(join(root, RULE_TESTS))
  .filter((name) => name.endsWith(".test.yaml"))
  .sort();

type RuleTestFile = {
  rule_files?: string[];
  tests?: { alert_rule_test?: { alertname: string; exp_alerts?: unknown[] }[] }[];
};
const parsed = testFiles.map((name) => ({
  name,
  file: parse(readFileSync(join(root, RULE_TESTS, name), "utf8")) as RuleTestFile,
}));

describe(`promtool test rules (${RULE_TESTS})`, () => {
  it("passes every case against the PrometheusRule's groups", () => {
    const dir = mkdtempSync(join(tmpdir(), "pulsegate-rule-tests-"));
    try {
      writeRulesFile(dir);
      for (const name of testFiles) copyFileSync(join(root, RULE_TESTS, name), join(dir, name));
      const run = spawnSync("promtool", ["test", "rules", ...testFiles], { cwd: dir, encoding: "utf8" });
      if (run.error)
        throw new Error(`promtool: ${run.error.message} (Debian's package prometheus has it; .ci/run installs it)`);
      expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("loads the rules file the test writes, from every file", () => {
    expect(testFiles.length).toBeGreaterThan(0);
    for (const { name, file } of parsed) expect(file.rule_files, name).toEqual([RULES_FILE]);
  });

  it("has a case where each alert fires and one where it stays silent, and none for an alert that is not there", () => {
    const alerts = alertNames(ruleGroups());
    const cases = new Map<string, { fires: number; silent: number }>();
    for (const { file } of parsed) {
      for (const test of file.tests ?? []) {
        for (const { alertname, exp_alerts } of test.alert_rule_test ?? []) {
          const counts = cases.get(alertname) ?? { fires: 0, silent: 0 };
          if (exp_alerts?.length) counts.fires += 1;
          else counts.silent += 1;
          cases.set(alertname, counts);
        }
      }
    }
    const gaps = alerts.flatMap((alert) => [
      ...(cases.get(alert)?.fires ? [] : [`${alert}: no case where it fires`]),
      ...(cases.get(alert)?.silent ? [] : [`${alert}: no case where it stays silent`]),
    ]);
    expect(gaps).toEqual([]);
    // A silent case for a misspelt or renamed alert would pass, testing nothing.
    expect([...cases.keys()].filter((name) => !alerts.includes(name))).toEqual([]);
  });
});
