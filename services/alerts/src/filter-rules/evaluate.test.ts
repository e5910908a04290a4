import { describe, expect, it } from "vitest";
import { evaluateFilterRules } from "./evaluate.ts";
import type { FilterOp, FilterRule, FilterSubject } from "./filter-rule.ts";
import { renderRule } from "./render.ts";

const subject: FilterSubject = {
  title: "Disk full on db-1",
  severity: "sev2",
  metadata: {
    env: "production",
    region: "eu-west-1",
    count: 5,
    ratio: 0.5,
    nothing: null,
    flag: false,
    tags: ["db", "disk", { team: "core" }],
    nested: { a: { b: { c: "deep" } } },
    items: [{ name: "first" }, { name: "second" }],
    obj: { x: 1, y: [1, 2] },
    "": "empty-key",
  },
};

function holds(field: string, op: FilterOp, value?: unknown, s: FilterSubject = subject): boolean {
  const rule: FilterRule = value === undefined ? { field, op } : { field, op, value };
  return evaluateFilterRules([rule], s).accepted;
}

describe("evaluateFilterRules", () => {
  it("accepts when there are no rules", () => {
    expect(evaluateFilterRules([], subject)).toEqual({ accepted: true });
  });

  it("requires all rules and reports the first failing one", () => {
    const rules: FilterRule[] = [
      { field: "metadata.env", op: "==", value: "production" },
      { field: "severity", op: "in", value: ["sev0", "sev1"] },
      { field: "title", op: "contains", value: "nope" },
    ];
    expect(evaluateFilterRules(rules, subject)).toEqual({
      accepted: false,
      reason: 'severity in ["sev0","sev1"]',
    });
    expect(evaluateFilterRules(rules.slice(0, 1), subject)).toEqual({
      accepted: true,
    });
  });

  describe("== and !=", () => {
    it("compares scalars", () => {
      expect(holds("metadata.env", "==", "production")).toBe(true);
      expect(holds("metadata.env", "==", "staging")).toBe(false);
      expect(holds("metadata.env", "!=", "staging")).toBe(true);
      expect(holds("metadata.env", "!=", "production")).toBe(false);
      expect(holds("metadata.count", "==", 5)).toBe(true);
      expect(holds("metadata.flag", "==", false)).toBe(true);
      expect(holds("metadata.nothing", "==", null)).toBe(true);
    });
    it("does not coerce types", () => {
      expect(holds("metadata.count", "==", "5")).toBe(false);
      expect(holds("metadata.count", "!=", "5")).toBe(true);
      expect(holds("metadata.flag", "==", 0)).toBe(false);
      expect(holds("metadata.nothing", "==", false)).toBe(false);
    });
    it("uses deep equality (object key order ignored, array order significant)", () => {
      expect(holds("metadata.obj", "==", { y: [1, 2], x: 1 })).toBe(true);
      expect(holds("metadata.obj", "==", { x: 1, y: [2, 1] })).toBe(false);
      expect(holds("metadata.obj", "==", { x: 1 })).toBe(false);
      expect(holds("metadata.obj", "==", { x: 1, y: [1, 2], z: 3 })).toBe(false);
      expect(holds("metadata.obj.y", "==", [1, 2])).toBe(true);
      expect(holds("metadata.obj.y", "==", { 0: 1, 1: 2 })).toBe(false);
      expect(holds("metadata.obj", "!=", { x: 1, y: [1, 2] })).toBe(false);
    });
    it("treats a missing field as != anything and never ==", () => {
      expect(holds("metadata.missing", "==", null)).toBe(false);
      expect(holds("metadata.missing", "!=", "production")).toBe(true);
      expect(holds("metadata.missing", "!=", null)).toBe(true);
    });
    it("works on title and severity", () => {
      expect(holds("title", "==", "Disk full on db-1")).toBe(true);
      expect(holds("severity", "==", "sev2")).toBe(true);
      expect(holds("severity", "!=", "sev2")).toBe(false);
    });
  });

  describe("in and not in", () => {
    it("checks membership by deep equality", () => {
      expect(holds("metadata.env", "in", ["staging", "production"])).toBe(true);
      expect(holds("metadata.env", "in", ["staging"])).toBe(false);
      expect(holds("metadata.env", "not in", ["staging"])).toBe(true);
      expect(holds("metadata.env", "not in", ["production"])).toBe(false);
      expect(holds("metadata.obj", "in", [{ y: [1, 2], x: 1 }])).toBe(true);
      expect(holds("metadata.count", "in", ["5"])).toBe(false);
      expect(holds("metadata.env", "in", [])).toBe(false);
      expect(holds("metadata.env", "not in", [])).toBe(true);
    });
    it("missing field: in fails, not in holds", () => {
      expect(holds("metadata.missing", "in", ["x", null])).toBe(false);
      expect(holds("metadata.missing", "not in", ["x"])).toBe(true);
    });
    it("fails on a non-array value instead of throwing", () => {
      expect(holds("metadata.env", "in", "production")).toBe(false);
      expect(holds("metadata.env", "not in", "staging")).toBe(false);
    });
  });

  describe("contains", () => {
    it("is a substring test on strings", () => {
      expect(holds("title", "contains", "full on")).toBe(true);
      expect(holds("title", "contains", "FULL")).toBe(false);
      expect(holds("title", "contains", "")).toBe(true);
      expect(holds("metadata.env", "contains", "duct")).toBe(true);
    });
    it("is a deep element test on arrays", () => {
      expect(holds("metadata.tags", "contains", "disk")).toBe(true);
      expect(holds("metadata.tags", "contains", "dis")).toBe(false);
      expect(holds("metadata.tags", "contains", { team: "core" })).toBe(true);
      expect(holds("metadata.obj.y", "contains", 2)).toBe(true);
      expect(holds("metadata.obj.y", "contains", "2")).toBe(false);
    });
    it("fails on type mismatches and missing fields", () => {
      expect(holds("title", "contains", 1)).toBe(false);
      expect(holds("metadata.count", "contains", 5)).toBe(false);
      expect(holds("metadata.obj", "contains", "x")).toBe(false);
      expect(holds("metadata.nothing", "contains", "x")).toBe(false);
      expect(holds("metadata.missing", "contains", "x")).toBe(false);
    });
  });

  describe("starts with", () => {
    it("works on strings only", () => {
      expect(holds("metadata.region", "starts with", "eu-")).toBe(true);
      expect(holds("metadata.region", "starts with", "us-")).toBe(false);
      expect(holds("title", "starts with", "Disk")).toBe(true);
      expect(holds("metadata.region", "starts with", "")).toBe(true);
      expect(holds("metadata.count", "starts with", "5")).toBe(false);
      expect(holds("metadata.tags", "starts with", "db")).toBe(false);
      expect(holds("metadata.missing", "starts with", "")).toBe(false);
    });
  });

  describe("> >= < <=", () => {
    it("compares numbers with numbers", () => {
      expect(holds("metadata.count", ">", 4)).toBe(true);
      expect(holds("metadata.count", ">", 5)).toBe(false);
      expect(holds("metadata.count", ">=", 5)).toBe(true);
      expect(holds("metadata.count", ">=", 6)).toBe(false);
      expect(holds("metadata.count", "<", 6)).toBe(true);
      expect(holds("metadata.count", "<", 5)).toBe(false);
      expect(holds("metadata.count", "<=", 5)).toBe(true);
      expect(holds("metadata.count", "<=", 4)).toBe(false);
      expect(holds("metadata.ratio", "<", 1)).toBe(true);
      expect(holds("metadata.ratio", ">", -1)).toBe(true);
    });
    it("compares strings with strings lexicographically", () => {
      expect(holds("severity", "<=", "sev2")).toBe(true);
      expect(holds("severity", "<", "sev2")).toBe(false);
      expect(holds("severity", ">", "sev1")).toBe(true);
      expect(holds("severity", ">=", "sev3")).toBe(false);
      expect(holds("metadata.region", ">", "eu")).toBe(true);
      expect(holds("metadata.region", "<", "B")).toBe(false); // "e" > "B"
      expect(holds("metadata.region", ">", "10")).toBe(true);
    });
    it("fails on mixed types, non-scalars and missing fields", () => {
      expect(holds("metadata.count", ">", "4")).toBe(false);
      expect(holds("metadata.count", "<", "9")).toBe(false);
      expect(holds("metadata.env", ">", 1)).toBe(false);
      expect(holds("metadata.nothing", ">=", 0)).toBe(false);
      expect(holds("metadata.flag", "<", 1)).toBe(false);
      expect(holds("metadata.tags", ">", 0)).toBe(false);
      expect(holds("metadata.missing", ">", 0)).toBe(false);
      expect(holds("metadata.missing", "<=", "z")).toBe(false);
    });
  });

  describe("exists and not exists", () => {
    it("tests presence (a null value exists)", () => {
      expect(holds("metadata.env", "exists")).toBe(true);
      expect(holds("metadata.nothing", "exists")).toBe(true);
      expect(holds("metadata.flag", "exists")).toBe(true);
      expect(holds("metadata.missing", "exists")).toBe(false);
      expect(holds("metadata.env", "not exists")).toBe(false);
      expect(holds("metadata.missing", "not exists")).toBe(true);
      expect(holds("title", "exists")).toBe(true);
      expect(holds("severity", "not exists")).toBe(false);
    });
  });

  describe("metadata paths", () => {
    it("walks nested objects", () => {
      expect(holds("metadata.nested.a.b.c", "==", "deep")).toBe(true);
      expect(holds("metadata.nested.a.b", "==", { c: "deep" })).toBe(true);
    });
    it("indexes arrays with canonical integer segments", () => {
      expect(holds("metadata.items.0.name", "==", "first")).toBe(true);
      expect(holds("metadata.items.1.name", "==", "second")).toBe(true);
      expect(holds("metadata.items.2.name", "exists")).toBe(false);
      expect(holds("metadata.items.01.name", "exists")).toBe(false);
      expect(holds("metadata.items.-1", "exists")).toBe(false);
      expect(holds("metadata.items.length", "exists")).toBe(false);
      expect(holds("metadata.tags.2.team", "==", "core")).toBe(true);
    });
    it("treats walking into scalars, null or past the end as missing", () => {
      expect(holds("metadata.env.length", "exists")).toBe(false);
      expect(holds("metadata.nothing.x", "not exists")).toBe(true);
      expect(holds("metadata.count.x", "!=", 1)).toBe(true);
      expect(holds("metadata.nested.a.b.c.d", "not exists")).toBe(true);
    });
    it("only reads own properties", () => {
      expect(holds("metadata.toString", "exists")).toBe(false);
      expect(holds("metadata.constructor", "not exists")).toBe(true);
      expect(holds("metadata.__proto__", "exists")).toBe(false);
      expect(holds("metadata.obj.hasOwnProperty", "exists")).toBe(false);
    });
    it("treats non-object metadata as having no fields", () => {
      for (const metadata of [null, undefined, "x", 3, ["production"]]) {
        const s = { ...subject, metadata };
        expect(holds("metadata.env", "==", "production", s)).toBe(false);
        expect(holds("metadata.env", "not exists", undefined, s)).toBe(true);
        expect(holds("metadata.env", "!=", "production", s)).toBe(true);
      }
    });
    it("supports array metadata root via index segments", () => {
      expect(
        holds("metadata.0", "==", "production", {
          ...subject,
          metadata: ["production"],
        }),
      ).toBe(true);
    });
  });

  it("fails (never throws) on malformed rules", () => {
    expect(holds("body", "exists")).toBe(false);
    expect(holds("metadata.", "not exists")).toBe(false);
    expect(holds("metadata", "exists")).toBe(false);
    const bogus = {
      field: "title",
      op: "matches",
      value: ".*",
    } as unknown as FilterRule;
    expect(evaluateFilterRules([bogus], subject)).toEqual({
      accepted: false,
      reason: 'title matches ".*"',
    });
  });
});

describe("renderRule", () => {
  it("renders field, op and JSON value", () => {
    expect(renderRule({ field: "metadata.env", op: "==", value: "production" })).toBe('metadata.env == "production"');
    expect(renderRule({ field: "severity", op: "not in", value: ["sev3", "sev4"] })).toBe(
      'severity not in ["sev3","sev4"]',
    );
    expect(renderRule({ field: "metadata.count", op: ">=", value: 10 })).toBe("metadata.count >= 10");
    expect(renderRule({ field: "metadata.x", op: "==", value: null })).toBe("metadata.x == null");
    expect(renderRule({ field: "metadata.x", op: "!=", value: { a: [1, true] } })).toBe('metadata.x != {"a":[1,true]}');
    expect(renderRule({ field: "title", op: "starts with", value: 'say "hi"' })).toBe(
      'title starts with "say \\"hi\\""',
    );
  });
  it("renders exists ops without a value", () => {
    expect(renderRule({ field: "metadata.x", op: "exists" })).toBe("metadata.x exists");
    expect(renderRule({ field: "metadata.x", op: "not exists", value: 1 })).toBe("metadata.x not exists");
  });
  it("is the reason for each failing op", () => {
    const cases: Array<[FilterRule, string]> = [
      [{ field: "metadata.env", op: "==", value: "staging" }, 'metadata.env == "staging"'],
      [{ field: "metadata.missing", op: "exists" }, "metadata.missing exists"],
      [{ field: "metadata.env", op: "not exists" }, "metadata.env not exists"],
      [{ field: "metadata.count", op: "<", value: 1 }, "metadata.count < 1"],
      [{ field: "title", op: "contains", value: "cpu" }, 'title contains "cpu"'],
    ];
    for (const [rule, reason] of cases) {
      expect(evaluateFilterRules([rule], subject)).toEqual({
        accepted: false,
        reason,
      });
    }
  });
});
