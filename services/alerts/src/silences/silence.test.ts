import { describe, expect, it } from "vitest";
import { checkSilence, isActive, matches, silencedBy } from "./silence.ts";

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

describe("matches", () => {
  const alert = { sourceId: "wh_1", groupKey: "db-primary", metadata: { env: "prod", n: { a: 1 } } };
  it("needs every given matcher; none matches all", () => {
    const none = { sourceIds: [], groupKeyPrefix: "", metadata: {} };
    expect(matches(none, alert)).toBe(true);
    expect(matches({ ...none, sourceIds: ["wh_2", "wh_1"] }, alert)).toBe(true);
    expect(matches({ ...none, sourceIds: ["wh_2"] }, alert)).toBe(false);
    expect(matches({ ...none, groupKeyPrefix: "db-" }, alert)).toBe(true);
    expect(matches({ ...none, groupKeyPrefix: "api-" }, alert)).toBe(false);
    expect(matches({ ...none, groupKeyPrefix: "db-" }, { ...alert, groupKey: null })).toBe(false);
    expect(matches({ ...none, metadata: { env: "prod", n: { a: 1 } } }, alert)).toBe(true);
    expect(matches({ ...none, metadata: { env: "staging" } }, alert)).toBe(false);
    expect(matches({ ...none, metadata: { missing: null } }, alert)).toBe(false);
  });

  it("silencedBy names the first open, matching silence", () => {
    const base = { teamId: "t", name: "n", createdAt: t("2026-01-01T00:00:00Z") };
    const closed = { ...base, id: "sil_closed", ...window("2026-01-01T00:00:00Z", "2026-01-01T01:00:00Z") };
    const open = {
      ...base,
      id: "sil_open",
      ...window("2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z"),
      matchers: { sourceIds: [], groupKeyPrefix: "db-", metadata: {} },
    };
    const list = [{ ...closed, matchers: open.matchers }, open];
    expect(silencedBy(list, alert, t("2026-01-01T05:00:00Z"))).toBe("sil_open");
    expect(silencedBy(list, { ...alert, groupKey: "api" }, t("2026-01-01T05:00:00Z"))).toBeNull();
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
});
