import { describe, expect, it } from "vitest";
import { checkSchedule, nextRun } from "./schedule.ts";

const berlin = (expression: string) => ({ expression, timezone: "Europe/Berlin" });
const next = (expression: string, timezone: string, after: string) =>
  nextRun({ expression, timezone }, new Date(after))?.toISOString();

describe("nextRun", () => {
  it("reads the expression in the schedule's time zone, whatever its offset that day", () => {
    // 09:00 in New York is 14:00 UTC in winter (EST) and 13:00 UTC in summer (EDT).
    expect(next("0 9 * * *", "America/New_York", "2026-01-10T15:00:00Z")).toBe("2026-01-11T14:00:00.000Z");
    expect(next("0 9 * * *", "America/New_York", "2026-07-10T15:00:00Z")).toBe("2026-07-11T13:00:00.000Z");
  });

  it("is strictly after the given time", () => {
    expect(next("0 * * * *", "UTC", "2026-01-01T10:00:00Z")).toBe("2026-01-01T11:00:00.000Z");
  });

  it("spans the spring-forward night: the day before at +01:00, the day after at +02:00", () => {
    // Europe/Berlin moves from 02:00 CET to 03:00 CEST on 2026-03-29.
    expect(nextRun(berlin("15 3 * * *"), new Date("2026-03-28T12:00:00Z"))?.toISOString()).toBe(
      "2026-03-29T01:15:00.000Z",
    );
    expect(nextRun(berlin("15 3 * * *"), new Date("2026-03-27T12:00:00Z"))?.toISOString()).toBe(
      "2026-03-28T02:15:00.000Z",
    );
  });

  it("a fixed time that does not exist on the spring-forward night (02:30) runs at the first time after the gap", () => {
    // 02:00 CET jumps to 03:00 CEST: the run is at 03:00 CEST, 01:00 UTC.
    expect(nextRun(berlin("30 2 * * *"), new Date("2026-03-28T12:00:00Z"))?.toISOString()).toBe(
      "2026-03-29T01:00:00.000Z",
    );
  });

  it("a fixed time that happens twice on the fall-back night (02:30) runs once, at its first occurrence", () => {
    const first = nextRun(berlin("30 2 * * *"), new Date("2026-10-24T12:00:00Z"));
    expect(first?.toISOString()).toBe("2026-10-25T00:30:00.000Z"); // 02:30 CEST
    expect(nextRun(berlin("30 2 * * *"), first as Date)?.toISOString()).toBe("2026-10-26T01:30:00.000Z"); // next day, CET
  });

  it("a repeating schedule runs on both occurrences of a repeated time, and keeps every real hour", () => {
    const runs = (expression: string, from: string, count: number) => {
      const out: string[] = [];
      let at = new Date(from);
      for (let i = 0; i < count; i++) {
        at = nextRun(berlin(expression), at) as Date;
        out.push(at.toISOString());
      }
      return out;
    };
    // 02:30 CEST, 02:00 CET, 02:30 CET.
    expect(runs("*/30 2 * * *", "2026-10-25T00:15:00Z", 3)).toEqual([
      "2026-10-25T00:30:00.000Z",
      "2026-10-25T01:00:00.000Z",
      "2026-10-25T01:30:00.000Z",
    ]);
    for (const from of ["2026-10-24T23:30:00Z", "2026-03-28T23:30:00Z"]) {
      const hourly = runs("0 * * * *", from, 4).map((iso) => Date.parse(iso));
      expect(hourly.slice(1).map((at, i) => at - (hourly[i] as number))).toEqual([3600_000, 3600_000, 3600_000]);
    }
  });
});

describe("checkSchedule", () => {
  it("accepts five fields with names and steps in a known zone", () => {
    expect(checkSchedule("*/15 9-17 * * mon-fri", "Europe/Berlin")).toEqual([]);
    expect(checkSchedule("0 3 1 jan *", "UTC")).toEqual([]);
  });

  it("refuses other field counts, bad values, unknown zones and schedules that never fire", () => {
    expect(checkSchedule("* * * *", "UTC")[0]?.field).toBe("schedule");
    expect(checkSchedule("0 0 * * * *", "UTC")[0]?.field).toBe("schedule");
    expect(checkSchedule("61 * * * *", "UTC")[0]?.field).toBe("schedule");
    expect(checkSchedule("0 3 * * *", "Mars/Olympus")[0]?.field).toBe("timezone");
    expect(checkSchedule("0 0 30 2 *", "UTC")[0]).toEqual({ field: "schedule", message: "schedule never fires." });
  });
});
