import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { deepEqual } from "../filter-rules/json-values.ts";
import type { SilenceMatchers } from "./silence.ts";
import { type AlertFacts, compileSilence, silencedBy } from "./silence-matcher.ts";

const t = (iso: string) => new Date(iso);
const OPEN = { startsAt: t("2026-01-01T00:00:00Z"), endsAt: t("2026-01-02T00:00:00Z"), recurrence: null };
const AT = t("2026-01-01T05:00:00Z");
const none: SilenceMatchers = { sourceIds: [], groupKeyPrefix: "", metadata: {} };
const compiled = (matchers: SilenceMatchers, id = "sil_1") => compileSilence({ id, ...OPEN, matchers });
// Inside the silence's window, so only its matchers decide.
const matches = (matchers: SilenceMatchers, alert: AlertFacts) => silencedBy([compiled(matchers)], alert, AT) !== null;

/** The matching of uncompiled silences, as the trigger path did it per trigger and silence before. */
function matchedBeforeCompiling(matchers: SilenceMatchers, alert: AlertFacts): boolean {
  if (matchers.sourceIds.length > 0 && !matchers.sourceIds.includes(alert.sourceId)) return false;
  if (matchers.groupKeyPrefix !== "" && !(alert.groupKey ?? "").startsWith(matchers.groupKeyPrefix)) return false;
  const metadata = (typeof alert.metadata === "object" && alert.metadata !== null ? alert.metadata : {}) as Record<
    string,
    unknown
  >;
  for (const [key, value] of Object.entries(matchers.metadata)) {
    if (!Object.hasOwn(metadata, key) || JSON.stringify(metadata[key]) !== JSON.stringify(value)) return false;
  }
  return true;
}

/** Every given matcher holds, metadata values compared as JSON values (the order of an object's keys aside). */
function matchesByDefinition(matchers: SilenceMatchers, alert: AlertFacts): boolean {
  const metadata = (alert.metadata ?? {}) as Record<string, unknown>;
  return (
    (matchers.sourceIds.length === 0 || matchers.sourceIds.includes(alert.sourceId)) &&
    (alert.groupKey ?? "").startsWith(matchers.groupKeyPrefix) &&
    Object.entries(matchers.metadata).every(
      ([key, value]) => Object.hasOwn(metadata, key) && deepEqual(metadata[key], value),
    )
  );
}

describe("compiled silence matchers", () => {
  const alert = { sourceId: "wh_1", groupKey: "db-primary", metadata: { env: "prod", n: { a: 1 } } };

  it("need every given matcher; none matches all", () => {
    expect(matches(none, alert)).toBe(true);
    expect(matches({ ...none, sourceIds: ["wh_2", "wh_1"] }, alert)).toBe(true);
    expect(matches({ ...none, sourceIds: ["wh_2"] }, alert)).toBe(false);
    expect(matches({ ...none, groupKeyPrefix: "db-" }, alert)).toBe(true);
    expect(matches({ ...none, groupKeyPrefix: "api-" }, alert)).toBe(false);
    expect(matches({ ...none, groupKeyPrefix: "db-" }, { ...alert, groupKey: null })).toBe(false);
    expect(matches({ ...none, metadata: { env: "prod", n: { a: 1 } } }, alert)).toBe(true);
    expect(matches({ ...none, metadata: { env: "staging" } }, alert)).toBe(false);
    expect(matches({ ...none, metadata: { missing: null } }, alert)).toBe(false);
    expect(matches({ ...none, metadata: { env: "prod" } }, { ...alert, metadata: null })).toBe(false);
  });

  it("compare metadata values as JSON values: types count, an object's key order does not", () => {
    const nested = { ...alert, metadata: { n: { b: [1, { y: 2, x: 1 }], a: "1" } } };
    expect(matches({ ...none, metadata: { n: { a: "1", b: [1, { x: 1, y: 2 }] } } }, nested)).toBe(true);
    expect(matches({ ...none, metadata: { n: { a: 1, b: [1, { x: 1, y: 2 }] } } }, nested)).toBe(false);
    expect(matches({ ...none, metadata: { n: { a: "1", b: [{ x: 1, y: 2 }, 1] } } }, nested)).toBe(false);
    expect(
      matches({ ...none, metadata: { ["__proto__"]: 1 } }, { ...alert, metadata: JSON.parse('{"__proto__":1}') }),
    ).toBe(true);
  });

  it("silencedBy names the first open, matching silence", () => {
    const closed = compileSilence({
      id: "sil_closed",
      startsAt: t("2026-01-01T00:00:00Z"),
      endsAt: t("2026-01-01T01:00:00Z"),
      recurrence: null,
      matchers: { ...none, groupKeyPrefix: "db-" },
    });
    const open = compiled({ ...none, groupKeyPrefix: "db-" }, "sil_open");
    const later = compiled(none, "sil_later");
    expect(silencedBy([closed, open, later], alert, AT)).toBe("sil_open");
    expect(silencedBy([closed, open, later], { ...alert, groupKey: "api" }, AT)).toBe("sil_later");
    expect(silencedBy([closed, open], { ...alert, groupKey: "api" }, AT)).toBeNull();
  });

  // Small pools, so that matches and near misses are common.
  const key = fc.constantFrom("env", "region", "n", "__proto__", "");
  const value = fc.jsonValue({ maxDepth: 3 });
  const matchersArb = fc.record({
    sourceIds: fc.uniqueArray(fc.constantFrom("wh_1", "wh_2", "mon_1"), { maxLength: 3 }),
    groupKeyPrefix: fc.constantFrom("", "db", "db-", "api-"),
    metadata: fc.dictionary(key, value, { maxKeys: 3 }),
  });
  /** An alert, often carrying some of the silence's own metadata values (as a trigger would send them back). */
  const alertFor = (matchers: SilenceMatchers) =>
    fc.record({
      sourceId: fc.constantFrom("wh_1", "wh_2", "mon_1"),
      groupKey: fc.option(fc.constantFrom("", "db", "db-primary", "api-x"), { nil: null }),
      metadata: fc
        .tuple(fc.dictionary(key, value, { maxKeys: 3 }), fc.subarray(Object.keys(matchers.metadata)))
        .map(([extra, copied]) => {
          const metadata: Record<string, unknown> = { ...extra };
          for (const name of copied)
            Object.defineProperty(metadata, name, {
              value: structuredClone(matchers.metadata[name]),
              enumerable: true,
            });
          return metadata;
        }),
    });
  const cases = matchersArb.chain((matchers) => alertFor(matchers).map((facts) => ({ matchers, facts })));

  it("give the verdicts matching gave before compiling, wherever objects list their keys in one order", () => {
    // Before, equal objects matched only with their keys in the same order (PostgreSQL's, for the silence's).
    const oneOrder = cases.map(({ matchers, facts }) => ({
      matchers: { ...matchers, metadata: orderKeys(matchers.metadata, "sorted") as Record<string, unknown> },
      facts: { ...facts, metadata: orderKeys(facts.metadata, "sorted") },
    }));
    fc.assert(
      fc.property(oneOrder, ({ matchers, facts }) => {
        expect(matches(matchers, facts)).toBe(matchedBeforeCompiling(matchers, facts));
      }),
      { numRuns: 2_000 },
    );
  });

  it("match exactly when every matcher holds by JSON equality, whatever the order of keys", () => {
    const reordered = cases.map(({ matchers, facts }) => ({
      matchers,
      facts: { ...facts, metadata: orderKeys(facts.metadata, "reversed") },
    }));
    fc.assert(
      fc.property(fc.oneof(cases, reordered), ({ matchers, facts }) => {
        expect(matches(matchers, facts)).toBe(matchesByDefinition(matchers, facts));
      }),
      { numRuns: 2_000 },
    );
  });
});

/** The same JSON value with every object's keys sorted, or in reverse order. */
function orderKeys(value: unknown, order: "sorted" | "reversed"): unknown {
  if (Array.isArray(value)) return value.map((item) => orderKeys(item, order));
  if (typeof value !== "object" || value === null) return value;
  const names = Object.keys(value);
  const out: Record<string, unknown> = {};
  for (const name of order === "sorted" ? names.sort() : names.reverse()) {
    const item = orderKeys((value as Record<string, unknown>)[name], order);
    Object.defineProperty(out, name, { value: item, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
