import { describe, expect, it } from "vitest";
import { HttpError } from "../errors.ts";
import { isJsonContentType, parseJsonBody } from "./json-body.ts";

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (error) {
    return error instanceof HttpError ? error.code : "other";
  }
}

describe("isJsonContentType", () => {
  it.each([
    "application/json",
    "application/json; charset=utf-8",
    "Application/JSON;charset=UTF-8",
    "application/vnd.api+json",
    "application/problem+json ; charset=utf-8",
  ])("accepts %s", (value) => expect(isJsonContentType(value)).toBe(true));

  it.each([
    undefined,
    "",
    "text/plain",
    "application/x-www-form-urlencoded",
    "text/json",
    "application/+json",
    "application/jsonp",
    "json",
  ])("rejects %s", (value) => expect(isJsonContentType(value)).toBe(false));
});

describe("parseJsonBody", () => {
  it("parses the exact bytes", () => {
    expect(parseJsonBody("application/json", Buffer.from('{"title":"x"}'))).toEqual({
      value: { title: "x" },
      inexactNumbers: [],
    });
  });

  it("answers 415 for a non-JSON type before looking at the body", () => {
    expect(codeOf(() => parseJsonBody("application/x-www-form-urlencoded", Buffer.from("{}")))).toBe(
      "unsupported_media_type",
    );
    expect(codeOf(() => parseJsonBody(undefined, Buffer.from("{}")))).toBe("unsupported_media_type");
  });

  it("answers invalid_json for broken JSON, an empty body and invalid UTF-8", () => {
    expect(codeOf(() => parseJsonBody("application/json", Buffer.from("{nope")))).toBe("invalid_json");
    expect(codeOf(() => parseJsonBody("application/json", Buffer.alloc(0)))).toBe("invalid_json");
    expect(codeOf(() => parseJsonBody("application/json", Buffer.from([0x22, 0xff, 0x22])))).toBe("invalid_json");
  });

  it("keeps a __proto__ key as data, also when the numbers are looked at closely", () => {
    for (const text of ['{"__proto__":{"polluted":true}}', '{"__proto__":{"polluted":true,"n":1e400}}']) {
      const { value } = parseJsonBody("application/json", Buffer.from(text));
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
      expect(Object.keys(value as object)).toEqual(["__proto__"]);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
  });

  it("reports the numbers a double would not keep, by path", () => {
    expect(parseJsonBody("application/json", Buffer.from('{"metadata":{"big":1e400}}')).inexactNumbers).toEqual([
      { field: "metadata.big", top: "metadata", source: "1e400" },
    ]);
  });
});
