// Prometheus scrapes and evaluates what deploy/ ships. Debian's Prometheus scrapes
// the shared stack's four /metrics endpoints, one job per service as the ServiceMonitor names them,
// and evaluates the PrometheusRule's groups (deploy/k8s/components/monitoring). This file runs
// first and alone (vitest.config.ts, e2e-idle), so the stack is healthy and idle: no alert may
// fire, nor even be pending, on it.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { METRIC_CATALOGUE, seriesNames } from "../../packages/telemetry/src/metric-catalogue.ts";
import { readPromql } from "../../scripts/lib/observability-checks.ts";
import { alertNames, ruleGroups } from "../../scripts/lib/prometheus-rules.ts";
import { eventually } from "../support/eventually.ts";
import { PrometheusServer } from "../support/prometheus-server.ts";

const stack = inject("stack");
/** The jobs, as the ServiceMonitor names them. */
const SERVICES = ["pulsegate-alerts", "pulsegate-auth", "pulsegate-gateway", "pulsegate-monitors"];
/** Scrapes and evaluations every second: a few rounds take seconds, not minutes. */
const INTERVAL_SECONDS = 1;
/** Evaluations of every group to watch, after the first, before calling the stack quiet. */
const ROUNDS = 4;

type Target = { labels: Record<string, string | undefined>; health: string; lastError: string; lastScrape: string };
type Rule = { name: string; type: string; health: string; lastError?: string; lastEvaluation: string };
type Group = { name: string; rules: Rule[]; lastEvaluation: string };

let prometheus: PrometheusServer | undefined;
beforeAll(async () => {
  if (!stack.metrics) throw new Error("the shared stack serves no /metrics (test/support/global-setup.ts: metrics)");
  prometheus = await PrometheusServer.start(stack.metrics, INTERVAL_SECONDS);
});
afterAll(() => prometheus?.stop());

function server(): PrometheusServer {
  if (!prometheus) throw new Error("prometheus did not start");
  return prometheus;
}

/** The targets, by job: each one's health and last scrape error. */
async function targets(): Promise<{ job: string; health: string; lastError: string; lastScrape: number }[]> {
  const { activeTargets } = await server().api<{ activeTargets: Target[] }>("targets");
  return activeTargets
    .map((target) => ({
      job: target.labels.job ?? "",
      health: target.health,
      lastError: target.lastError,
      lastScrape: Date.parse(target.lastScrape),
    }))
    .sort((a, b) => a.job.localeCompare(b.job));
}

/**
 * A moment (ms) by which every target's last scrape succeeded, so that an evaluation after it
 * sees every service's data. A cold service's first scrape may outlast the 1 s timeout (the
 * alerts and monitors gauges read the database): the scrape after it counts.
 */
async function allUp(timeoutMs = 15_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await targets();
    const up = found.length === SERVICES.length && found.every((target) => target.health === "up");
    if (up || Date.now() > deadline) {
      expect(found.map(({ job, health, lastError }) => ({ job, health, lastError }))).toEqual(
        SERVICES.map((job) => ({ job, health: "up", lastError: "" })),
      );
      return Math.max(...found.map((target) => target.lastScrape));
    }
    await new Promise((done) => setTimeout(done, 200));
  }
}

/** The groups once each has been evaluated after `since` (ms). */
async function evaluatedAfter(since: number): Promise<Group[]> {
  return eventually(
    async () => {
      const { groups } = await server().api<{ groups: Group[] }>("rules");
      const done = groups.every((group) => Date.parse(group.lastEvaluation) > since);
      return done && groups.length > 0 ? groups : undefined;
    },
    { what: "an evaluation of every rule group", timeoutMs: 15_000, intervalMs: 200 },
  );
}

/** Each rule that failed to evaluate, with its error. */
function failing(groups: Group[]): string[] {
  return groups
    .flatMap((group) => group.rules)
    .filter((rule) => rule.health !== "ok")
    .map((rule) => `${rule.name}: ${rule.health} ${rule.lastError ?? ""}`);
}

describe("Prometheus on the shared stack, with the PrometheusRule", () => {
  it("scrapes every service's /metrics: each target up", async () => {
    await allUp();
    expect((await targets()).map((target) => target.job)).toEqual(SERVICES);
  });

  it("loads every group and alert of the PrometheusRule, and evaluates each rule without error", async () => {
    // On scraped data: an evaluation before any scrape sees nothing, and proves nothing.
    const groups = await evaluatedAfter(await allUp());
    const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
    // Prometheus lists the groups by name.
    expect(groups.map((group) => ({ name: group.name, alerts: group.rules.map((rule) => rule.name) }))).toEqual(
      ruleGroups()
        .sort(byName)
        .map((group) => ({ name: group.name, alerts: alertNames([group]) })),
    );
    expect(failing(groups)).toEqual([]);
  });

  it(`fires nothing, not even a pending alert, over ${ROUNDS} evaluations of the idle stack`, async () => {
    const groups = await evaluatedAfter((await allUp()) + ROUNDS * INTERVAL_SECONDS * 1000);
    expect(failing(groups)).toEqual([]);
    // ALERTS holds a series for each pending or firing alert while it is so: any over Prometheus's whole life.
    const ever = await server().query("max_over_time(ALERTS[1h])");
    expect(ever.result.map((series) => series.metric)).toEqual([]);
    const { alerts } = await server().api<{ alerts: unknown[] }>("alerts");
    expect(alerts).toEqual([]);
    // Silent on data, not for want of it: the gauges the rules read, which an idle stack reports, were there.
    const read = new Set(ruleGroups().flatMap((group) => group.rules.flatMap((rule) => readPromql(rule.expr).metrics)));
    const idleGauges = METRIC_CATALOGUE.filter((entry) => entry.whenIdle)
      .flatMap(seriesNames)
      .filter((name) => read.has(name))
      .sort();
    expect(idleGauges.length).toBeGreaterThan(0);
    // Under the jobs the rules select.
    const present = await server().query(
      `count by (__name__) ({__name__=~"${idleGauges.join("|")}", job=~"pulsegate-.*"})`,
    );
    expect(present.result.map((series) => series.metric.__name__).sort()).toEqual(idleGauges);
  });
});
