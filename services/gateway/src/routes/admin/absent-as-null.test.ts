import { describe, expect, it } from "vitest";
import { iso, orNull } from "./absent-as-null.ts";

describe("iso", () => {
  it("writes a timestamp as ISO 8601 text, and an unset one as null", () => {
    expect(iso(new Date("2026-11-23T15:51:00.000Z"))).toBe("2026-11-23T15:51:00.000Z");
    expect(iso(undefined)).toBeNull();
  });
});

describe("orNull", () => {
  it("keeps a string, and turns the empty (unset) one into null", () => {
    expect(orNull("daily")).toBe("daily");
    expect(orNull("")).toBeNull();
  });
});
