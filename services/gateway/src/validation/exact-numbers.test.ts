import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { inexactNumberProblem, keepsDecimal, parseJsonKeepingNumbers } from "./exact-numbers.ts";

const kept = (source: string) => keepsDecimal(source, JSON.parse(source) as number);

describe("keepsDecimal", () => {
  it.each([
    "0",
    "0.0",
    "1",
    "-1",
    "0.1",
    "1.50",
    "1e3",
    "1E+3",
    "-2.5e-3",
    "9007199254740992",
    "1.7976931348623157e308",
    "5e-324",
    "0e5",
    "123456789012345",
    "0.000000000000000001",
  ])("keeps %s", (source) => {
    expect(kept(source)).toBe(true);
  });

  it.each([
    "1e400",
    "-1e400",
    "1e-400",
    "-0",
    "-0.0",
    "-0e7",
    "123456789012345678901234567890",
    "9007199254740993",
    "9.000000000000001",
    "0.12345678901234567",
  ])("does not keep %s", (source) => {
    expect(kept(source)).toBe(false);
  });

  it("keeps every double as JSON.stringify writes it", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        expect(kept(JSON.stringify(value))).toBe(true);
      }),
    );
  });
});

describe("parseJsonKeepingNumbers", () => {
  it("parses as JSON.parse does, and finds nothing in an ordinary body", () => {
    const text =
      '{"title":"Deploy 2026-01-05T10:00:00-00:00","metadata":{"n":1.5,"ids":[1,2,3],"sha":"9f0e1d","trace":"1234567890123456789"}}';
    expect(parseJsonKeepingNumbers(text)).toEqual({ value: JSON.parse(text), inexactNumbers: [] });
  });

  it("names every number a double cannot keep by its path, in order", () => {
    const text =
      '{"metadata":{"a":{"x":1e400},"big":123456789012345678901234567890,"list":[1,{"tiny":1e-400}],"zero":-0,"ok":1e3},"b":-0.0}';
    expect(parseJsonKeepingNumbers(text).inexactNumbers).toEqual([
      { field: "metadata.a.x", top: "metadata", source: "1e400" },
      { field: "metadata.big", top: "metadata", source: "123456789012345678901234567890" },
      { field: "metadata.list[1].tiny", top: "metadata", source: "1e-400" },
      { field: "metadata.zero", top: "metadata", source: "-0" },
      { field: "b", top: "b", source: "-0.0" },
    ]);
  });

  it("never misses one: whatever JSON with numbers, the report is exactly the numbers that change", () => {
    const number = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }).map((value) => JSON.stringify(value)),
      fc.bigInt().map(String),
      fc.constantFrom("1e400", "-0", "-0.0", "1.50", "1e3", "9007199254740993", "0.1"),
    );
    const space = fc.constantFrom("", " ", "\n", "\t", "\r\n  ");
    const body = fc.array(fc.tuple(fc.string({ maxLength: 4 }), number, space, space), { maxLength: 6 });
    fc.assert(
      fc.property(body, (pairs) => {
        const text = `{${pairs
          .map(
            ([key, source, before, after], i) =>
              `${JSON.stringify(`${i}${key}`)}:${before}[${after}${source}${before}]`,
          )
          .join(`,${pairs.length % 2 === 0 ? " " : ""}`)}}`;
        const expected = pairs
          .map(([key, source], i) => ({ field: `${i}${key}[0]`, top: `${i}${key}`, source }))
          .filter(({ source }) => !kept(source));
        // Keys that look like array indexes come first, as objects enumerate them.
        expect(parseJsonKeepingNumbers(text).inexactNumbers).toEqual(expect.arrayContaining(expected));
        expect(parseJsonKeepingNumbers(text).inexactNumbers).toHaveLength(expected.length);
      }),
    );
  });

  it("says which number, shortened, and what to do instead", () => {
    expect(inexactNumberProblem({ field: "metadata.big", source: "123456789012345678901234567890" })).toEqual({
      field: "metadata.big",
      message: "metadata.big: the number 123456789012345678901234… cannot be stored exactly; send it as a string.",
    });
  });
});
