import { describe, expect, it } from "vitest";
import { parseJsonKeepingNumbers } from "./exact-numbers.ts";
import { parsePingBody } from "./ping.ts";
import { nestedObject, objectOfBytes } from "./test-helpers.ts";

function details(value: unknown) {
  const result = parsePingBody(value);
  if (result.ok) throw new Error("expected failure");
  return result.details;
}

describe("parsePingBody", () => {
  it("treats an empty body as up", () => {
    expect(parsePingBody(undefined)).toEqual({
      ok: true,
      value: { status: "up" },
    });
  });

  it("defaults status to up and has no metadata when nothing is folded", () => {
    expect(parsePingBody({})).toEqual({ ok: true, value: { status: "up" } });
    expect(parsePingBody({ status: "down", reason: "db unreachable" })).toEqual({
      ok: true,
      value: { status: "down", reason: "db unreachable" },
    });
  });

  it("rejects non-object bodies", () => {
    for (const value of [null, [], "up", 1, false]) {
      expect(details(value)).toEqual([{ field: "body", message: "body must be a JSON object." }]);
    }
  });

  it("accepts only up, down or start (a start signal)", () => {
    expect(parsePingBody({ status: "up" }).ok).toBe(true);
    expect(parsePingBody({ status: "start" })).toEqual({ ok: true, value: { status: "start" } });
    for (const status of ["UP", "degraded", "started", "", null, 1, true]) {
      expect(details({ status })).toEqual([{ field: "status", message: "status must be one of up, down, start." }]);
    }
  });

  it("limits reason and group_key to 200 code points", () => {
    expect(parsePingBody({ reason: "😀".repeat(200), group_key: "😀".repeat(200) }).ok).toBe(true);
    expect(details({ reason: "😀".repeat(201), group_key: "k".repeat(201) })).toEqual([
      { field: "reason", message: "reason must be at most 200 characters." },
      {
        field: "group_key",
        message: "group_key must be at most 200 characters.",
      },
    ]);
    expect(details({ reason: 1, group_key: null })).toEqual([
      { field: "reason", message: "reason must be a string." },
      { field: "group_key", message: "group_key must be a string." },
    ]);
  });

  it("folds group_key into metadata", () => {
    expect(parsePingBody({ group_key: "db-1" })).toEqual({
      ok: true,
      value: {
        status: "up",
        group_key: "db-1",
        metadata: { group_key: "db-1" },
      },
    });
  });

  it("folds unknown top-level fields into metadata", () => {
    expect(
      parsePingBody({
        status: "down",
        host: "db-1",
        load: [1, 2],
        nested: { a: 1 },
      }),
    ).toEqual({
      ok: true,
      value: {
        status: "down",
        metadata: { host: "db-1", load: [1, 2], nested: { a: 1 } },
      },
    });
  });

  it("lets explicit metadata win over extras, and group_key win over both", () => {
    const result = parsePingBody({
      host: "from-extra",
      region: "eu",
      group_key: "gk-top",
      metadata: { host: "from-metadata", group_key: "gk-meta", other: 1 },
    });
    expect(result).toEqual({
      ok: true,
      value: {
        status: "up",
        group_key: "gk-top",
        metadata: {
          host: "from-metadata",
          region: "eu",
          group_key: "gk-top",
          other: 1,
        },
      },
    });
  });

  it("keeps an explicit empty metadata object", () => {
    expect(parsePingBody({ metadata: {} })).toEqual({
      ok: true,
      value: { status: "up", metadata: {} },
    });
  });

  it("validates explicit metadata type, depth and size", () => {
    for (const metadata of [null, [], "x"]) {
      expect(details({ metadata })).toEqual([{ field: "metadata", message: "metadata must be an object." }]);
    }
    expect(parsePingBody({ metadata: nestedObject(10) }).ok).toBe(true);
    expect(details({ metadata: nestedObject(11) })).toEqual([
      {
        field: "metadata",
        message: "metadata must be nested at most 10 levels deep.",
      },
    ]);
    expect(parsePingBody({ metadata: objectOfBytes(102_400) }).ok).toBe(true);
    expect(details({ metadata: objectOfBytes(102_401) })).toEqual([
      {
        field: "metadata",
        message: "metadata must be at most 102400 bytes as JSON.",
      },
    ]);
  });

  it("applies the limits to the merged metadata too", () => {
    // Extra field at body level 2 == metadata level 2, so depths line up.
    expect(parsePingBody({ a: nestedObject(9) }).ok).toBe(true);
    expect(details({ a: nestedObject(10) })).toEqual([
      {
        field: "metadata",
        message: "metadata must be nested at most 10 levels deep.",
      },
    ]);
    // Each part fits alone; together they exceed 102400 bytes.
    const big = objectOfBytes(102_400).a as string;
    expect(details({ extra: "x", metadata: { a: big } })).toEqual([
      {
        field: "metadata",
        message: "metadata must be at most 102400 bytes as JSON.",
      },
    ]);
    expect(parsePingBody({ metadata: { a: big } }).ok).toBe(true);
  });

  it("keeps __proto__ extras as plain data", () => {
    const result = parsePingBody(JSON.parse('{"__proto__":{"polluted":true},"x":1}'));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const metadata = result.value.metadata ?? {};
    expect(Object.hasOwn(metadata, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(metadata)).toBe(Object.prototype);
    expect((metadata as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("text that cannot be stored", () => {
  it("refuses U+0000 and unpaired surrogates in reason, group_key, metadata and folded extras", () => {
    const cases: [string, string][] = [
      ['{"reason":"a\\u0000"}', "reason"],
      ['{"group_key":"\\ud800"}', "group_key"],
      ['{"metadata":{"k":"\\u0000"}}', "metadata.k"],
      ['{"build":{"log":"\\udfff"}}', "build.log"],
      ['{"extra":"\\u0000"}', "extra"],
    ];
    for (const [body, field] of cases) {
      const result = parsePingBody(JSON.parse(body));
      expect(result.ok, body).toBe(false);
      if (!result.ok) expect(result.details.map((detail) => detail.field)).toEqual([field]);
    }
    expect(parsePingBody({ reason: "\ud83d\ude00", extra: "\ufffd" }).ok).toBe(true);
  });

  it("refuses a number a double would not keep anywhere it would be stored, extras named as sent", () => {
    const { value, inexactNumbers } = parseJsonKeepingNumbers(
      '{"status":"down","reason":1e400,"build":{"id":123456789012345678901234567890},"metadata":{"n":-0.0},"ok":1e3}',
    );
    const result = parsePingBody(value, inexactNumbers);
    expect(result.ok ? [] : result.details.map((detail) => detail.field)).toEqual(["reason", "build.id", "metadata.n"]);
  });
});
