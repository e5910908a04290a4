import { InvalidError } from "@pulsegate/contract/errors";
import { INSTANT_LIMITS } from "@pulsegate/contract/limits";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  decodeCursor,
  decodeIdCursor,
  encodeCursor,
  encodeIdCursor,
  invalidCursor,
  PAGE_LIMITS,
  pageSize,
} from "./page-cursor.ts";

const base64url = (text: string) => Buffer.from(text).toString("base64url");
const cursorOf = (value: unknown) => base64url(JSON.stringify(value));

describe("page cursor", () => {
  it("decodes what it encoded", () => {
    const at = new Date("2026-01-02T03:04:05.678Z");
    expect(decodeCursor(encodeCursor(at, "alert_1"))).toEqual({ at: at.toISOString(), id: "alert_1" });
  });

  it("decodes every cursor it can encode: an instant within INSTANT_LIMITS and an id PostgreSQL keeps", () => {
    const instant = fc.date({
      min: new Date(INSTANT_LIMITS.earliest),
      max: new Date(INSTANT_LIMITS.latest),
      noInvalidDate: true,
    });
    const id = fc.string({ unit: "grapheme", minLength: 1, maxLength: 60 }).filter((text) => !text.includes("\u0000"));
    fc.assert(
      fc.property(instant, id, (at, key) => {
        expect(decodeCursor(encodeCursor(at, key))).toEqual({ at: at.toISOString(), id: key });
      }),
    );
  });

  it.each([
    ["not base64url JSON", "%%%"],
    ["another shape", cursorOf({ at: "x", id: "y" })],
    ["a bad date", cursorOf(["yesterday", "y"])],
    ["a number id", cursorOf(["2026-01-01T00:00:00.000Z", 1])],
    ["year 0000, which PostgreSQL has not", cursorOf(["0000-01-01T00:00:00.000Z", "x"])],
    ["the last instant Date holds", cursorOf(["+275760-09-13T00:00:00.000Z", "x"])],
    ["a date Date reads but the encoder never writes", cursorOf(["-1", "x"])],
    ["a date without its time", cursorOf(["2026-01-01", "x"])],
    ["a time before 1970", cursorOf(["1969-12-31T23:59:59.999Z", "x"])],
    ["an id with NUL", cursorOf(["2026-01-01T00:00:00.000Z", "x\u0000"])],
    ["an id with an unpaired surrogate", cursorOf(["2026-01-01T00:00:00.000Z", "\ud800"])],
    ["an empty id", cursorOf(["2026-01-01T00:00:00.000Z", ""])],
    ["JSON spelled otherwise", base64url('[ "2026-01-01T00:00:00.000Z", "x" ]')],
    ["characters base64url decoding skips", `${cursorOf(["2026-01-01T00:00:00.000Z", "x"])}!!`],
    ["padding", `${cursorOf(["2026-01-01T00:00:00.000Z", "xy"])}==`],
    ["standard base64", Buffer.from(JSON.stringify(["2026-01-01T00:00:00.000Z", "x?>"])).toString("base64")],
    ["NUL itself", `${cursorOf(["2026-01-01T00:00:00.000Z", "x"])}\u0000`],
    ["a cursor over the length bound", cursorOf(["2026-01-01T00:00:00.000Z", "x".repeat(PAGE_LIMITS.cursorMaxLength)])],
  ])("refuses %s", (_name, cursor) => {
    expect(decodeCursor(cursor)).toBeNull();
  });

  it("takes back only the exact text it made, whatever string or JSON a caller sends", () => {
    const ours = (cursor: string) => {
      const decoded = decodeCursor(cursor);
      return decoded === null || encodeCursor(new Date(decoded.at), decoded.id) === cursor;
    };
    const time = fc.date().map((date) => (Number.isNaN(date.getTime()) ? "" : date.toISOString()));
    const pair = fc.tuple(fc.oneof(fc.string(), time), fc.string({ unit: "binary" }));
    fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 80 }), ours), { numRuns: 200 });
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 2 }).map(cursorOf), ours), { numRuns: 200 });
    fc.assert(fc.property(pair.map(cursorOf), ours), { numRuns: 200 });
    // Generating binary strings is CPU-heavy the first time; a loaded machine must not fail the test.
  }, 30_000);

  it("reads 0 as the default page size and keeps others within 1..max", () => {
    expect(pageSize(0)).toBe(PAGE_LIMITS.default);
    expect(pageSize(1)).toBe(1);
    expect(pageSize(PAGE_LIMITS.max)).toBe(PAGE_LIMITS.max);
    expect(pageSize(PAGE_LIMITS.max + 1)).toBe(PAGE_LIMITS.max);
  });

  it("refuses a cursor with one domain error, invalid_cursor, naming the cursor, for every list", () => {
    expect(invalidCursor()).toBeInstanceOf(InvalidError);
    expect(invalidCursor()).toMatchObject({
      code: "invalid_cursor",
      message: "The cursor is not one this API returned.",
      details: [{ field: "cursor", message: "The cursor is not one this API returned." }],
    });
  });
});

describe("bigint id cursor", () => {
  it("decodes the ids it encodes, 1 to the largest bigint", () => {
    for (const id of ["1", "42", "9223372036854775807"]) expect(decodeIdCursor(encodeIdCursor(id))).toBe(id);
  });

  it.each(["0", "-5", "012", " 12", "12 ", "1.0", "1e3", "0x10", "9223372036854775808", "99999999999999999999", ""])(
    "refuses %j",
    (cursor) => {
      expect(decodeIdCursor(cursor)).toBeNull();
    },
  );

  it("takes back only canonical bigint text, whatever a caller sends", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.bigInt().map(String)), (cursor) => {
        const id = decodeIdCursor(cursor);
        expect(id === null || (String(BigInt(id)) === cursor && BigInt(id) > 0n)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
