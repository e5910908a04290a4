import { InvalidError } from "@pulsegate/errors";
import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor, invalidCursor, PAGE_LIMITS, pageSize } from "./page-cursor.ts";

describe("page cursor", () => {
  it("decodes what it encoded", () => {
    const at = new Date("2026-01-02T03:04:05.678Z");
    expect(decodeCursor(encodeCursor(at, "alert_1"))).toEqual({ at: at.toISOString(), id: "alert_1" });
  });

  it.each([
    ["not base64url JSON", "%%%"],
    ["another shape", Buffer.from(JSON.stringify({ at: "x", id: "y" })).toString("base64url")],
    ["a bad date", Buffer.from(JSON.stringify(["yesterday", "y"])).toString("base64url")],
    ["a number id", Buffer.from(JSON.stringify(["2026-01-01T00:00:00.000Z", 1])).toString("base64url")],
  ])("refuses %s", (_name, cursor) => {
    expect(decodeCursor(cursor)).toBeNull();
  });

  it("reads 0 as the default page size and keeps others within 1..max", () => {
    expect(pageSize(0)).toBe(PAGE_LIMITS.default);
    expect(pageSize(1)).toBe(1);
    expect(pageSize(PAGE_LIMITS.max)).toBe(PAGE_LIMITS.max);
    expect(pageSize(PAGE_LIMITS.max + 1)).toBe(PAGE_LIMITS.max);
  });

  it("refuses a cursor with one domain error, invalid_cursor, for every list", () => {
    expect(invalidCursor()).toBeInstanceOf(InvalidError);
    expect(invalidCursor()).toMatchObject({
      code: "invalid_cursor",
      message: "The cursor is not one this API returned.",
    });
  });
});
