import { describe, expect, it } from "vitest";
import { isTransientError, isUnstorableTextError } from "./classify-error.ts";

describe("isTransientError", () => {
  it("recognises unreachable databases and peers, also behind a cause", () => {
    expect(
      isTransientError(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })),
    ).toBe(true);
    expect(isTransientError(Object.assign(new Error("terminating connection"), { code: "57P01" }))).toBe(true);
    expect(
      isTransientError(new Error("wrapped", { cause: new Error("timeout exceeded when trying to connect") })),
    ).toBe(true);
    const orm = new Error("x");
    orm.name = "ConnectionException";
    expect(isTransientError(orm)).toBe(true);
  });

  it("leaves programming errors and constraint violations alone", () => {
    expect(isTransientError(new TypeError("undefined is not a function"))).toBe(false);
    expect(isTransientError(Object.assign(new Error("duplicate key"), { code: "23505" }))).toBe(false);
    expect(isTransientError(undefined)).toBe(false);
  });
});

describe("isUnstorableTextError", () => {
  it("recognises PostgreSQL refusing U+0000 in text and jsonb, also behind a cause", () => {
    expect(isUnstorableTextError(Object.assign(new Error("invalid byte sequence"), { code: "22021" }))).toBe(true);
    expect(isUnstorableTextError(new Error("x", { cause: Object.assign(new Error("y"), { code: "22P05" }) }))).toBe(
      true,
    );
    expect(isUnstorableTextError(Object.assign(new Error("duplicate key"), { code: "23505" }))).toBe(false);
  });
});
