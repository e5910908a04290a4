import { describe, expect, it } from "vitest";
import { jsonBoundsProblem, nestingDepth } from "./json-bounds.ts";

const nested = (levels: number): unknown => {
  let value: unknown = {};
  for (let i = 1; i < levels; i++) value = { a: value };
  return value;
};

describe("nestingDepth", () => {
  it("counts objects and arrays as levels", () => {
    expect(nestingDepth(1, 10)).toBe(0);
    expect(nestingDepth({}, 10)).toBe(1);
    expect(nestingDepth({ a: {} }, 10)).toBe(2);
    expect(nestingDepth({ a: [] }, 10)).toBe(2);
    expect(nestingDepth({ a: [{ b: [1] }], c: 1 }, 10)).toBe(4);
    expect(nestingDepth({ a: null, b: "x" }, 10)).toBe(1);
    expect(nestingDepth(nested(10), 99)).toBe(10);
  });

  it("stops early and survives hostile nesting", () => {
    let deep: unknown = {};
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(nestingDepth(deep, 10)).toBe(11);
  });
});

describe("jsonBoundsProblem", () => {
  it("keeps values within both bounds", () => {
    expect(jsonBoundsProblem(nested(10), { maxDepth: 10, maxBytes: 1_000 })).toBeNull();
    expect(jsonBoundsProblem("x".repeat(10), { maxDepth: 10, maxBytes: 12 })).toBeNull();
    expect(jsonBoundsProblem(nested(10), { maxDepth: 10 })).toBeNull();
  });

  it("says which bound is broken, depth first, without JSON.stringify meeting deep nesting", () => {
    let deep: unknown = "x";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(jsonBoundsProblem(deep, { maxDepth: 10, maxBytes: 1 })).toBe("must be nested at most 10 levels deep");
    expect(jsonBoundsProblem(nested(11), { maxDepth: 10 })).toBe("must be nested at most 10 levels deep");
    expect(jsonBoundsProblem("é".repeat(6), { maxDepth: 10, maxBytes: 13 })).toBe("must be at most 13 bytes as JSON");
  });
});
