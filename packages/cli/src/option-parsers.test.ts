import { InvalidArgumentError } from "commander";
import { describe, expect, it } from "vitest";
import { integer, json, keyValue, timestampOrNever } from "./option-parsers.ts";

describe("option parsers", () => {
  it("integer: whole numbers at or above the minimum only", () => {
    expect(integer(1)("300")).toBe(300);
    for (const bad of ["0", "-1", "1.5", "1e3", "", "x", "99999999999999999999"]) {
      expect(() => integer(1)(bad)).toThrow(InvalidArgumentError);
    }
  });

  it("json: an object or an array as asked", () => {
    expect(json("object")('{"env":"prod"}')).toEqual({ env: "prod" });
    expect(json("array")("[1]")).toEqual([1]);
    for (const bad of ["[1]", "null", "1", "{", '"x"']) expect(() => json("object")(bad)).toThrow(InvalidArgumentError);
  });

  it("keyValue: accumulates, splitting at the first =", () => {
    expect(keyValue("b=x=y", keyValue("a=1"))).toEqual({ a: "1", b: "x=y" });
    expect(keyValue("empty=")).toEqual({ empty: "" });
    for (const bad of ["novalue", "=x"]) expect(() => keyValue(bad)).toThrow(InvalidArgumentError);
  });

  it("timestampOrNever: ISO 8601 date-times, or never", () => {
    expect(timestampOrNever("2026-12-31T23:59:59Z")).toBe("2026-12-31T23:59:59.000Z");
    expect(timestampOrNever("never")).toBe("never");
    for (const bad of ["tomorrow", "2026-12-31", "12/31/2026"]) {
      expect(() => timestampOrNever(bad)).toThrow(InvalidArgumentError);
    }
  });
});
