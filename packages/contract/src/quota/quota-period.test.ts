import { describe, expect, it } from "vitest";
import { monthUsage, quotaAllowsOneMore, quotaKey, quotaMonth, secondsUntilNextQuotaMonth } from "./quota-period.ts";

describe("quotaMonth", () => {
  it("is the first day of the UTC month, whatever the local time zone says", () => {
    expect(quotaMonth(new Date("2026-11-23T16:42:00Z"))).toBe("2026-11-01");
    expect(quotaMonth(new Date("2026-01-01T00:00:00.000Z"))).toBe("2026-01-01");
    expect(quotaMonth(new Date("2026-12-31T23:59:59.999Z"))).toBe("2026-12-01");
  });

  it("changes exactly at midnight UTC between two months, and across a year", () => {
    expect(quotaMonth(new Date("2026-02-28T23:59:59.999Z"))).toBe("2026-02-01");
    expect(quotaMonth(new Date("2026-03-01T00:00:00.000Z"))).toBe("2026-03-01");
    expect(quotaMonth(new Date("2025-12-31T23:59:59.999Z"))).toBe("2025-12-01");
    expect(quotaMonth(new Date("2026-01-01T00:00:00.000Z"))).toBe("2026-01-01");
    // 23:30 on 31 October in New York is already November in UTC.
    expect(quotaMonth(new Date("2026-10-31T23:30:00-04:00"))).toBe("2026-11-01");
  });

  it("counts a leap day in February", () => {
    expect(quotaMonth(new Date("2028-02-29T12:00:00Z"))).toBe("2028-02-01");
  });
});

describe("secondsUntilNextQuotaMonth", () => {
  it("counts to midnight UTC of the next month's first day, rolling over the year", () => {
    expect(secondsUntilNextQuotaMonth(new Date("2025-12-31T23:00:00Z"))).toBe(3600);
    expect(secondsUntilNextQuotaMonth(new Date("2026-02-28T00:00:00Z"))).toBe(86_400);
    expect(secondsUntilNextQuotaMonth(new Date("2028-02-28T00:00:00Z"))).toBe(2 * 86_400);
    expect(secondsUntilNextQuotaMonth(new Date("2026-11-01T00:00:00Z"))).toBe(30 * 86_400);
  });

  it("rounds up, and says at least one second in the month's last instant", () => {
    expect(secondsUntilNextQuotaMonth(new Date("2026-11-30T23:59:58.500Z"))).toBe(2);
    expect(secondsUntilNextQuotaMonth(new Date("2026-11-30T23:59:59.999Z"))).toBe(1);
  });

  it("agrees with quotaMonth: the month it counts to is the next one quotaMonth gives", () => {
    const now = new Date("2026-11-23T16:42:00.250Z");
    const next = new Date(now.getTime() + secondsUntilNextQuotaMonth(now) * 1000);
    expect(quotaMonth(next)).toBe("2026-12-01");
    expect(quotaMonth(new Date(next.getTime() - 1_000))).toBe("2026-11-01");
  });
});

describe("quotaKey", () => {
  it("tells teams and months apart, even when a team id ends like a month", () => {
    expect(quotaKey("team_a", "2026-11-01")).not.toBe(quotaKey("team_a", "2026-12-01"));
    expect(quotaKey("team_a", "2026-11-01")).not.toBe(quotaKey("team_b", "2026-11-01"));
    expect(quotaKey("a\u0000b", "c")).toBe(quotaKey("a\u0000b", "c"));
  });
});

describe("quotaAllowsOneMore", () => {
  it("lets one more in below the quota, none at it", () => {
    expect(quotaAllowsOneMore(3, 2)).toBe(true);
    expect(quotaAllowsOneMore(3, 3)).toBe(false);
    expect(quotaAllowsOneMore(3, 4)).toBe(false);
    expect(quotaAllowsOneMore(1, 0)).toBe(true);
  });

  it("reads a quota of 0 as unlimited", () => {
    expect(quotaAllowsOneMore(0, 0)).toBe(true);
    expect(quotaAllowsOneMore(0, 1_000_000)).toBe(true);
  });
});

describe("monthUsage", () => {
  it("reads the month of `at` and counts a month without a row as 0", async () => {
    const asked: string[] = [];
    const stored = new Map([["2026-11-01", 42]]);
    const read = async (month: string) => {
      asked.push(month);
      return stored.get(month);
    };
    expect(await monthUsage(new Date("2026-11-30T23:59:59.999Z"), read)).toEqual({ month: "2026-11-01", used: 42 });
    expect(await monthUsage(new Date("2026-12-01T00:00:00.000Z"), read)).toEqual({ month: "2026-12-01", used: 0 });
    expect(asked).toEqual(["2026-11-01", "2026-12-01"]);
  });
});
