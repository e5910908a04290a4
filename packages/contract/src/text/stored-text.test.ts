import { describe, expect, it } from "vitest";
import { checkStoredText } from "./stored-text.ts";

describe("checkStoredText, the services' backstop", () => {
  it("gives the metadata parsed, or undefined without any", () => {
    expect(checkStoredText({ title: "Disk full" }, '{"env":"prod","n":[1]}')).toEqual({
      metadata: { env: "prod", n: [1] },
    });
    expect(checkStoredText({ title: "Disk full", group_key: undefined }, null)).toEqual({ metadata: undefined });
  });

  it("refuses metadata that is not a JSON object", () => {
    for (const json of ["[1]", "null", "3", "not json"]) {
      expect(checkStoredText({ title: "t" }, json)).toEqual({
        problems: [{ field: "metadata", message: "metadata must be a JSON object." }],
      });
    }
  });

  it("names each unstorable text by field, the texts before the metadata", () => {
    const checked = checkStoredText({ title: "a\u0000b", group_key: "\ud800" }, '{"k\\u0000":"v"}');
    expect("problems" in checked && checked.problems.map((problem) => problem.field)).toEqual([
      "title",
      "group_key",
      "metadata.k\u0000",
    ]);
  });
});
