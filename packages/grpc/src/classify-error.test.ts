import { describe, expect, it } from "vitest";
import { isUnstorableTextError } from "./classify-error.ts";

describe("isUnstorableTextError", () => {
  it("recognises PostgreSQL refusing U+0000 in text and jsonb, also behind a cause", () => {
    expect(isUnstorableTextError(Object.assign(new Error("invalid byte sequence"), { code: "22021" }))).toBe(true);
    expect(isUnstorableTextError(new Error("x", { cause: Object.assign(new Error("y"), { code: "22P05" }) }))).toBe(
      true,
    );
    expect(isUnstorableTextError(Object.assign(new Error("duplicate key"), { code: "23505" }))).toBe(false);
  });
});
