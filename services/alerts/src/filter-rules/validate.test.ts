import { describe, expect, it } from "vitest";
import { FILTER_OPS } from "./filter-rule.ts";
import { validateFilterRules } from "./validate.ts";

function errorsOf(input: unknown) {
  const result = validateFilterRules(input);
  if (!("errors" in result)) throw new Error(`expected errors, got ${JSON.stringify(result)}`);
  return result.errors;
}

function rulesOf(input: unknown) {
  const result = validateFilterRules(input);
  if (!("rules" in result)) throw new Error(`expected rules, got ${JSON.stringify(result)}`);
  return result.rules;
}

const nested = (levels: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = [value];
  return value;
};

describe("validateFilterRules", () => {
  it("accepts an empty list", () => {
    expect(rulesOf([])).toEqual([]);
  });

  it("accepts every op and normalises exists ops (value dropped)", () => {
    const input = [
      { field: "metadata.env", op: "==", value: "production" },
      { field: "metadata.env", op: "!=", value: null },
      { field: "metadata.env", op: "in", value: ["a", "b"] },
      { field: "metadata.env", op: "not in", value: [] },
      { field: "title", op: "contains", value: "db" },
      { field: "metadata.tags", op: "contains", value: { a: 1 } },
      { field: "metadata.x", op: "exists" },
      { field: "metadata.x", op: "not exists", value: "ignored" },
      { field: "metadata.n", op: ">", value: 1 },
      { field: "metadata.n", op: ">=", value: "a" },
      { field: "metadata.n", op: "<", value: -1.5 },
      { field: "metadata.n", op: "<=", value: 0 },
      { field: "title", op: "starts with", value: "" },
      { field: "severity", op: "<=", value: "sev2" },
      { field: "metadata.items.0.name", op: "==", value: "x" },
    ];
    const rules = rulesOf(input);
    expect(rules).toHaveLength(input.length);
    expect(rules[6]).toEqual({ field: "metadata.x", op: "exists" });
    expect(rules[7]).toEqual({ field: "metadata.x", op: "not exists" });
    expect(rules[1]).toEqual({ field: "metadata.env", op: "!=", value: null });
    expect(new Set(rules.map((r) => r.op))).toEqual(new Set(FILTER_OPS));
  });

  it("requires an array", () => {
    for (const input of [undefined, null, {}, "[]", 1]) {
      expect(errorsOf(input)).toEqual([{ field: "filterRules", message: "filterRules must be an array." }]);
    }
  });

  it("allows 50 rules and rejects 51", () => {
    const rule = { field: "title", op: "exists" };
    expect(rulesOf(Array(50).fill(rule))).toHaveLength(50);
    expect(errorsOf(Array(51).fill(rule))).toEqual([
      {
        field: "filterRules",
        message: "filterRules must contain at most 50 rules.",
      },
    ]);
  });

  it("requires each rule to be an object", () => {
    expect(errorsOf([{ field: "title", op: "exists" }, null, ["title"]])).toEqual([
      {
        field: "filterRules[1]",
        message: "filterRules[1] must be an object with field, op and value.",
      },
      {
        field: "filterRules[2]",
        message: "filterRules[2] must be an object with field, op and value.",
      },
    ]);
  });

  it("rejects unknown rule properties", () => {
    expect(errorsOf([{ field: "title", operator: "==", op: "exists" }])).toEqual([
      {
        field: "filterRules[0].operator",
        message: "filterRules[0].operator is not a known rule property (expected field, op, value).",
      },
    ]);
  });

  it("validates field presence, type and grammar", () => {
    const errors = errorsOf([
      { op: "exists" },
      { field: 3, op: "exists" },
      { field: "body", op: "exists" },
      { field: "metadata", op: "exists" },
      { field: "metadata.", op: "exists" },
      { field: "metadata.a..b", op: "exists" },
      { field: "Title", op: "exists" },
    ]);
    expect(errors).toEqual([
      {
        field: "filterRules[0].field",
        message: "filterRules[0].field is required.",
      },
      {
        field: "filterRules[1].field",
        message: "filterRules[1].field must be a string.",
      },
      {
        field: "filterRules[2].field",
        message: 'filterRules[2].field must be "title", "severity" or "metadata.<path>".',
      },
      {
        field: "filterRules[3].field",
        message: 'filterRules[3].field must be "title", "severity" or "metadata.<path>".',
      },
      {
        field: "filterRules[4].field",
        message: "filterRules[4].field must not contain empty metadata path segments.",
      },
      {
        field: "filterRules[5].field",
        message: "filterRules[5].field must not contain empty metadata path segments.",
      },
      {
        field: "filterRules[6].field",
        message: 'filterRules[6].field must be "title", "severity" or "metadata.<path>".',
      },
    ]);
  });

  it("allows 10 metadata path segments and rejects 11", () => {
    const path = (n: number) => `metadata.${Array.from({ length: n }, (_, i) => `k${i}`).join(".")}`;
    expect(rulesOf([{ field: path(10), op: "exists" }])).toHaveLength(1);
    expect(errorsOf([{ field: path(11), op: "exists" }])).toEqual([
      {
        field: "filterRules[0].field",
        message: "filterRules[0].field must have at most 10 metadata path segments.",
      },
    ]);
  });

  it("validates op", () => {
    expect(
      errorsOf([{ field: "title" }, { field: "title", op: "matches", value: ".*" }, { field: "title", op: 1 }]),
    ).toEqual([
      { field: "filterRules[0].op", message: "filterRules[0].op is required." },
      {
        field: "filterRules[1].op",
        message:
          "filterRules[1].op must be one of ==, !=, in, not in, contains, exists, not exists, >, >=, <, <=, starts with.",
      },
      {
        field: "filterRules[2].op",
        message:
          "filterRules[2].op must be one of ==, !=, in, not in, contains, exists, not exists, >, >=, <, <=, starts with.",
      },
    ]);
  });

  it("requires value except for exists ops", () => {
    for (const op of FILTER_OPS) {
      const result = validateFilterRules([{ field: "metadata.x", op }]);
      if (op === "exists" || op === "not exists") expect(result).toEqual({ rules: [{ field: "metadata.x", op }] });
      else {
        expect(result).toEqual({
          errors: [
            {
              field: "filterRules[0].value",
              message: `filterRules[0].value is required for the ${op} operator.`,
            },
          ],
        });
      }
    }
  });

  it("checks the value shape per op", () => {
    const errors = errorsOf([
      { field: "metadata.x", op: "in", value: "a" },
      { field: "metadata.x", op: "not in", value: { a: 1 } },
      { field: "metadata.x", op: "starts with", value: 1 },
      { field: "metadata.x", op: ">", value: true },
      { field: "metadata.x", op: "<=", value: [1] },
      { field: "metadata.x", op: "<", value: null },
    ]);
    expect(errors.map((e) => e.message)).toEqual([
      "filterRules[0].value must be an array for the in operator.",
      "filterRules[1].value must be an array for the not in operator.",
      "filterRules[2].value must be a string for the starts with operator.",
      "filterRules[3].value must be a number or a string for the > operator.",
      "filterRules[4].value must be a number or a string for the <= operator.",
      "filterRules[5].value must be a number or a string for the < operator.",
    ]);
    expect(errors.every((e, i) => e.field === `filterRules[${i}].value`)).toBe(true);
  });

  it("limits a value to 10 KiB as JSON, checked after its depth", () => {
    const list = (count: number) => Array.from({ length: count }, (_, i) => `h${String(i).padStart(8, "0")}`);
    // ["h00000000",...]: 12 bytes an item, plus the brackets, less the last comma.
    expect(JSON.stringify(list(853)).length).toBe(10_237);
    expect(JSON.stringify(list(854)).length).toBe(10_249);
    expect(rulesOf([{ field: "metadata.host", op: "in", value: list(853) }])).toHaveLength(1);
    expect(errorsOf([{ field: "metadata.host", op: "in", value: list(854) }])).toEqual([
      {
        field: "filterRules[0].value",
        message: "filterRules[0].value must be at most 10240 bytes as JSON.",
      },
    ]);
    let deep: unknown = "x";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(errorsOf([{ field: "metadata.x", op: "==", value: deep }])[0]?.message).toBe(
      "filterRules[0].value must be nested at most 10 levels deep.",
    );
  });

  it("limits value nesting to 10 levels and rejects non-JSON values", () => {
    expect(rulesOf([{ field: "metadata.x", op: "==", value: nested(10) }])).toHaveLength(1);
    expect(errorsOf([{ field: "metadata.x", op: "==", value: nested(11) }])).toEqual([
      {
        field: "filterRules[0].value",
        message: "filterRules[0].value must be nested at most 10 levels deep.",
      },
    ]);
    expect(errorsOf([{ field: "metadata.x", op: "==", value: Number.NaN }])[0]?.message).toBe(
      "filterRules[0].value must be a JSON value.",
    );
    expect(errorsOf([{ field: "metadata.x", op: "==", value: [() => 1] }])[0]?.message).toBe(
      "filterRules[0].value must be a JSON value.",
    );
  });

  it("restricts severity comparisons to sev0..sev4", () => {
    expect(rulesOf([{ field: "severity", op: "in", value: ["sev0", "sev4"] }])).toHaveLength(1);
    expect(
      errorsOf([
        { field: "severity", op: "==", value: "SEV1" },
        { field: "severity", op: "not in", value: ["sev1", "critical"] },
        { field: "severity", op: ">", value: 2 },
      ]),
    ).toEqual([
      {
        field: "filterRules[0].value",
        message: "filterRules[0].value must be one of sev0, sev1, sev2, sev3, sev4 when field is severity.",
      },
      {
        field: "filterRules[1].value",
        message: "filterRules[1].value must only contain sev0, sev1, sev2, sev3, sev4 when field is severity.",
      },
      {
        field: "filterRules[2].value",
        message: "filterRules[2].value must be one of sev0, sev1, sev2, sev3, sev4 when field is severity.",
      },
    ]);
    expect(rulesOf([{ field: "severity", op: "starts with", value: "sev" }])).toHaveLength(1);
  });

  it("reports all problems across rules", () => {
    const errors = errorsOf([
      { field: "title", op: "exists" },
      { field: "nope", op: "==" },
    ]);
    expect(errors.map((e) => e.field)).toEqual(["filterRules[1].field", "filterRules[1].value"]);
  });
});
