import { describe, expect, it } from "vitest";
import { parseJsonKeepingNumbers } from "./exact-numbers.ts";
import { nestedObject, objectOfBytes } from "./test-helpers.ts";
import { parseTriggerBody } from "./trigger.ts";

function details(value: unknown) {
  const result = parseTriggerBody(value);
  if (result.ok) throw new Error("expected failure");
  return result.details;
}

describe("parseTriggerBody", () => {
  it("accepts a minimal body", () => {
    expect(parseTriggerBody({ title: "Disk full" })).toEqual({
      ok: true,
      value: { title: "Disk full" },
    });
  });

  it("accepts a full body and drops unknown fields", () => {
    const body = {
      title: "Disk full",
      description: "db-1 at 99%",
      severity: "sev1",
      metadata: { env: "production", disk: { pct: 99 } },
      group_key: "db-1/disk",
      extra: "ignored",
    };
    expect(parseTriggerBody(body)).toEqual({
      ok: true,
      value: {
        title: "Disk full",
        description: "db-1 at 99%",
        severity: "sev1",
        metadata: { env: "production", disk: { pct: 99 } },
        group_key: "db-1/disk",
      },
    });
  });

  it("rejects non-object bodies", () => {
    for (const value of [null, [], [{ title: "x" }], "x", 3, true, undefined]) {
      expect(details(value)).toEqual([{ field: "body", message: "body must be a JSON object." }]);
    }
  });

  it("requires title as a non-empty string", () => {
    expect(details({})).toEqual([{ field: "title", message: "title is required." }]);
    expect(details({ title: 1 })).toEqual([{ field: "title", message: "title must be a string." }]);
    expect(details({ title: null })).toEqual([{ field: "title", message: "title must be a string." }]);
    expect(details({ title: "" })).toEqual([{ field: "title", message: "title must not be empty." }]);
    for (const title of ["   ", "\t\n", "\u3000\u00a0", "\u200b\ufeff", "\u3164"]) {
      expect(details({ title })).toEqual([
        { field: "title", message: "title must have visible text, not only white space or invisible characters." },
      ]);
    }
    expect(parseTriggerBody({ title: "  disk full  " })).toEqual({ ok: true, value: { title: "  disk full  " } });
  });

  it("limits title to 200 code points", () => {
    expect(parseTriggerBody({ title: "a".repeat(200) }).ok).toBe(true);
    expect(details({ title: "a".repeat(201) })).toEqual([
      { field: "title", message: "title must be at most 200 characters." },
    ]);
    expect(parseTriggerBody({ title: "😀".repeat(200) }).ok).toBe(true); // 400 UTF-16 units
    expect(details({ title: "😀".repeat(201) })).toEqual([
      { field: "title", message: "title must be at most 200 characters." },
    ]);
  });

  it("limits description to 2000 code points", () => {
    expect(parseTriggerBody({ title: "t", description: "😀".repeat(2000) }).ok).toBe(true);
    expect(parseTriggerBody({ title: "t", description: "" }).ok).toBe(true);
    expect(details({ title: "t", description: "😀".repeat(2001) })).toEqual([
      {
        field: "description",
        message: "description must be at most 2000 characters.",
      },
    ]);
    expect(details({ title: "t", description: 5 })).toEqual([
      { field: "description", message: "description must be a string." },
    ]);
    expect(details({ title: "t", description: null })).toEqual([
      { field: "description", message: "description must be a string." },
    ]);
  });

  it("limits group_key to 200 code points", () => {
    expect(parseTriggerBody({ title: "t", group_key: "😀".repeat(200) }).ok).toBe(true);
    expect(details({ title: "t", group_key: "k".repeat(201) })).toEqual([
      {
        field: "group_key",
        message: "group_key must be at most 200 characters.",
      },
    ]);
    expect(details({ title: "t", group_key: ["k"] })).toEqual([
      { field: "group_key", message: "group_key must be a string." },
    ]);
  });

  it("accepts sev0..sev4 only", () => {
    for (const severity of ["sev0", "sev1", "sev2", "sev3", "sev4"]) {
      expect(parseTriggerBody({ title: "t", severity })).toEqual({
        ok: true,
        value: { title: "t", severity },
      });
    }
    for (const severity of ["sev5", "SEV1", "critical", "", 1, null]) {
      expect(details({ title: "t", severity })).toEqual([
        {
          field: "severity",
          message: "severity must be one of sev0, sev1, sev2, sev3, sev4.",
        },
      ]);
    }
  });

  it("validates metadata type, depth and size", () => {
    expect(parseTriggerBody({ title: "t", metadata: {} })).toEqual({
      ok: true,
      value: { title: "t", metadata: {} },
    });
    for (const metadata of [null, [], "x", 1]) {
      expect(details({ title: "t", metadata })).toEqual([
        { field: "metadata", message: "metadata must be an object." },
      ]);
    }
    expect(parseTriggerBody({ title: "t", metadata: nestedObject(10) }).ok).toBe(true);
    expect(details({ title: "t", metadata: nestedObject(11) })).toEqual([
      {
        field: "metadata",
        message: "metadata must be nested at most 10 levels deep.",
      },
    ]);
    expect(parseTriggerBody({ title: "t", metadata: objectOfBytes(102_400) }).ok).toBe(true);
    expect(details({ title: "t", metadata: objectOfBytes(102_401) })).toEqual([
      {
        field: "metadata",
        message: "metadata must be at most 102400 bytes as JSON.",
      },
    ]);
  });

  it("reports every problem at once", () => {
    expect(
      details({
        description: 1,
        severity: "high",
        metadata: [],
        group_key: "k".repeat(201),
      }),
    ).toEqual([
      { field: "title", message: "title is required." },
      { field: "description", message: "description must be a string." },
      {
        field: "severity",
        message: "severity must be one of sev0, sev1, sev2, sev3, sev4.",
      },
      {
        field: "group_key",
        message: "group_key must be at most 200 characters.",
      },
      { field: "metadata", message: "metadata must be an object." },
    ]);
  });

  it("works on JSON.parse output", () => {
    const result = parseTriggerBody(JSON.parse('{"title":"x","metadata":{"__proto__":{"polluted":true}}}'));
    expect(result.ok).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("NUL characters", () => {
  it("refuses U+0000 in title, description and group_key, naming the field", () => {
    for (const field of ["title", "description", "group_key"]) {
      const result = parseTriggerBody({ title: "ok", [field]: "a\u0000b" });
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.details).toContainEqual({
          field,
          message: `${field} must not contain the NUL character (U+0000).`,
        });
      }
    }
  });
});

describe("text that cannot be stored", () => {
  it("refuses unpaired surrogates in title, description and group_key instead of rewriting them", () => {
    for (const field of ["title", "description", "group_key"]) {
      for (const text of ["\ud800", "\udfff", "a\ud800b"]) {
        const result = parseTriggerBody({ title: "ok", [field]: text });
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.details.map((detail) => detail.field)).toEqual([field]);
      }
    }
    expect(parseTriggerBody({ title: "\ufffd", group_key: "\ud83d\ude00" }).ok).toBe(true);
  });

  it("refuses U+0000 and unpaired surrogates anywhere in metadata, naming the path", () => {
    const result = parseTriggerBody(JSON.parse('{"title":"t","metadata":{"k":"\\u0000","a":[{"b":"\\udfff"}]}}'));
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.details.map((detail) => detail.field)).toEqual(["metadata.k", "metadata.a[0].b"]);
      expect(result.details[0]?.message).toBe("metadata.k must not contain the NUL character (U+0000).");
    }
    const key = parseTriggerBody(JSON.parse('{"title":"t","metadata":{"\\u0000":1}}'));
    expect(key.ok).toBe(false);
  });

  it("refuses a metadata number a double would not keep, naming it, and ignores one in an ignored field", () => {
    const { value, inexactNumbers } = parseJsonKeepingNumbers(
      '{"title":"t","metadata":{"big":123456789012345678901234567890,"ok":1.50,"list":[-0]},"ignored":1e400,"metadata.x":1e400}',
    );
    const result = parseTriggerBody(value, inexactNumbers);
    expect(result.ok ? [] : result.details).toEqual([
      {
        field: "metadata.big",
        message: "metadata.big: the number 123456789012345678901234… cannot be stored exactly; send it as a string.",
      },
      {
        field: "metadata.list[0]",
        message: "metadata.list[0]: the number -0 cannot be stored exactly; send it as a string.",
      },
    ]);
    const fine = parseJsonKeepingNumbers('{"title":"t","metadata":{"a":0.1,"b":1e3},"ignored":1e400}');
    expect(parseTriggerBody(fine.value, fine.inexactNumbers).ok).toBe(true);
  });
});
