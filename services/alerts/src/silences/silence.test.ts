import { SILENCE_LIMITS } from "@pulsegate/contract/limits";
import { describe, expect, it } from "vitest";
import { checkSilence, isActive } from "./silence.ts";

const t = (iso: string) => new Date(iso);
const window = (startsAt: string, endsAt: string, recurrence: "daily" | "weekly" | null = null) => ({
  startsAt: t(startsAt),
  endsAt: t(endsAt),
  recurrence,
});

describe("isActive", () => {
  it("a one-off window is [start, end)", () => {
    const w = window("2026-01-01T02:00:00Z", "2026-01-01T03:00:00Z");
    expect(isActive(w, t("2026-01-01T01:59:59Z"))).toBe(false);
    expect(isActive(w, t("2026-01-01T02:00:00Z"))).toBe(true);
    expect(isActive(w, t("2026-01-01T02:59:59Z"))).toBe(true);
    expect(isActive(w, t("2026-01-01T03:00:00Z"))).toBe(false);
  });

  it("a daily or weekly window repeats from its start, never before it", () => {
    const daily = window("2026-01-01T02:00:00Z", "2026-01-01T03:00:00Z", "daily");
    expect(isActive(daily, t("2026-03-15T02:30:00Z"))).toBe(true);
    expect(isActive(daily, t("2026-03-15T03:30:00Z"))).toBe(false);
    expect(isActive(daily, t("2025-12-31T02:30:00Z"))).toBe(false);
    // 2026-01-01 is a Thursday: the weekly window is Thursdays 02:00–03:00 UTC.
    const weekly = window("2026-01-01T02:00:00Z", "2026-01-01T03:00:00Z", "weekly");
    expect(isActive(weekly, t("2026-01-08T02:10:00Z"))).toBe(true);
    expect(isActive(weekly, t("2026-01-09T02:10:00Z"))).toBe(false);
  });
});

describe("checkSilence", () => {
  const input = {
    name: "Deploy",
    startsAt: t("2026-01-01T00:00:00Z"),
    endsAt: t("2026-01-01T01:00:00Z"),
    recurrence: "",
    sourceIds: [],
    groupKeyPrefix: "",
    metadataJson: "",
  };
  it("accepts a window and fills the matchers", () => {
    expect(checkSilence(input).silence?.matchers).toEqual({ sourceIds: [], groupKeyPrefix: "", metadata: {} });
  });
  it("names what is wrong", () => {
    const fields = (extra: object) => checkSilence({ ...input, ...extra }).errors.map((error) => error.field);
    expect(fields({ endsAt: input.startsAt })).toEqual(["endsAt"]);
    expect(fields({ recurrence: "hourly" })).toEqual(["recurrence"]);
    expect(fields({ recurrence: "daily", endsAt: t("2026-01-02T00:00:00Z") })).toEqual(["endsAt"]);
    expect(fields({ metadataJson: "[1]" })).toEqual(["matchers.metadata"]);
    expect(fields({ name: " " })).toEqual(["name"]);
  });
  it("refuses metadata matchers nested deeper than trigger metadata may be", () => {
    const nested = (levels: number) => `${'{"a":'.repeat(levels - 1)}{}${"}".repeat(levels - 1)}`;
    const fields = (extra: object) => checkSilence({ ...input, ...extra }).errors.map((error) => error.field);
    expect(fields({ metadataJson: nested(10) })).toEqual([]);
    expect(fields({ metadataJson: nested(11) })).toEqual(["matchers.metadata"]);
    expect(fields({ metadataJson: nested(5_000) })).toEqual(["matchers.metadata"]);
  });
  it("refuses instants a gRPC caller sends outside the range every layer holds", () => {
    const fields = (extra: object) => checkSilence({ ...input, ...extra }).errors.map((error) => error.field);
    expect(fields({ startsAt: t("0000-01-01T00:00:00Z") })).toEqual(["startsAt"]);
    expect(fields({ endsAt: new Date(Number.NaN) })).toEqual(["endsAt"]);
    expect(fields({ endsAt: t("+010000-01-01T00:00:00Z") })).toEqual(["endsAt"]);
  });
  it("bounds matchers.metadata: its size, depth and keys, and each key and value, naming the field", () => {
    const problems = (metadata: unknown) =>
      checkSilence({ ...input, metadataJson: JSON.stringify(metadata) }).errors.map((error) => [
        error.field,
        error.message,
      ]);
    const deep = (depth: number) => {
      let value: unknown = 1;
      for (let level = 0; level < depth; level++) value = { a: value };
      return value;
    };
    const keys = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, i]));
    const { metadataMaxBytes, metadataMaxDepth, metadataMaxKeys, metadataKeyMaxLength, metadataValueMaxBytes } =
      SILENCE_LIMITS;

    expect(problems(deep(metadataMaxDepth))).toEqual([]);
    expect(problems(deep(metadataMaxDepth + 1))).toEqual([
      ["matchers.metadata", `matchers.metadata must be nested at most ${metadataMaxDepth} levels deep.`],
    ]);
    expect(problems(keys(metadataMaxKeys))).toEqual([]);
    expect(problems(keys(metadataMaxKeys + 1))).toEqual([
      ["matchers.metadata", `matchers.metadata must have at most ${metadataMaxKeys} keys.`],
    ]);
    expect(problems({ ["k".repeat(metadataKeyMaxLength)]: 1 })).toEqual([]);
    expect(problems({ ["é".repeat(metadataKeyMaxLength + 1)]: 1 })).toEqual([
      ["matchers.metadata", `matchers.metadata keys must be at most ${metadataKeyMaxLength} characters.`],
    ]);
    // A string's JSON is its characters and two quotes.
    expect(problems({ env: "v".repeat(metadataValueMaxBytes - 2) })).toEqual([]);
    expect(problems({ env: "v".repeat(metadataValueMaxBytes - 1) })).toEqual([
      ["matchers.metadata.env", `matchers.metadata.env must be at most ${metadataValueMaxBytes} bytes as JSON.`],
    ]);
    // Five values just under their own bound: only the whole is too large.
    const five = Object.fromEntries(
      ["a", "b", "c", "d", "e"].map((key) => [key, "v".repeat(metadataValueMaxBytes - 2)]),
    );
    expect(problems(five)).toEqual([
      ["matchers.metadata", `matchers.metadata must be at most ${metadataMaxBytes} bytes as JSON.`],
    ]);
  });

  it("measures matchers.metadata as JSON text of what it parses to, not as sent", () => {
    const padded = `{ "env" :${" ".repeat(SILENCE_LIMITS.metadataMaxBytes)}"prod" }`;
    expect(checkSilence({ ...input, metadataJson: padded }).errors).toEqual([]);
  });
});
