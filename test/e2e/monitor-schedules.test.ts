// Monitors on a cron schedule in a time zone, their next due time, and the sweeper.
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { Client } from "../support/client.ts";
import { eventually } from "../support/eventually.ts";

const stack = inject("stack");
const client = new Client(stack);
const db = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
afterAll(() => db.end());

/** The wall-clock time of `at` in `timeZone`, as "HH:MM". */
function localTime(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(
    at,
  );
}

type ScheduledMonitor = {
  id: string;
  pingUrl: string;
  schedule: string | null;
  timezone: string | null;
  graceSeconds: number;
  nextDueAt: string | null;
  status: string;
  lastReason: string | null;
};

describe("cron schedules", () => {
  it("a scheduled monitor shows its schedule, zone and, once pinged, its next due time: the next run plus grace", async () => {
    const { teamId, secret } = await client.createTeam();
    const created = await client.admin("POST", `/teams/${teamId}/monitors`, {
      name: "Nightly backup",
      schedule: "15 3 * * *",
      timezone: "Europe/Berlin",
      graceSeconds: 600,
    });
    expect(created.status).toBe(201);
    const monitor = created.body.monitor as ScheduledMonitor;
    expect(monitor).toMatchObject({
      schedule: "15 3 * * *",
      timezone: "Europe/Berlin",
      nextDueAt: null,
      status: "idle",
    });

    const pingedAt = Date.now();
    expect((await client.ping(monitor.pingUrl, undefined, { secret })).status).toBe(200);
    const after = (await client.admin("GET", `/monitors/${monitor.id}`)).body.monitor as ScheduledMonitor;
    const due = new Date(after.nextDueAt as string);
    const run = new Date(due.getTime() - 600_000);
    // The run is at 03:15 in Berlin, whatever Berlin's offset is that day, within a day of the ping.
    expect(localTime(run, "Europe/Berlin")).toBe("03:15");
    expect(run.getTime()).toBeGreaterThan(pingedAt);
    expect(run.getTime() - pingedAt).toBeLessThanOrEqual(25 * 3600_000);
  });

  it("defaults the time zone to UTC", async () => {
    const { teamId, secret } = await client.createTeam();
    const created = await client.admin("POST", `/teams/${teamId}/monitors`, {
      name: "hourly",
      schedule: "0 * * * *",
      graceSeconds: 0,
    });
    const monitor = created.body.monitor as ScheduledMonitor;
    expect(monitor.timezone).toBe("UTC");
    await client.ping(monitor.pingUrl, undefined, { secret });
    const due = new Date(
      ((await client.admin("GET", `/monitors/${monitor.id}`)).body.monitor as ScheduledMonitor).nextDueAt as string,
    );
    expect([due.getUTCMinutes(), due.getUTCSeconds()]).toEqual([0, 0]);
    expect(due.getTime() - Date.now()).toBeLessThanOrEqual(3600_000);
  });

  it("refuses a bad expression, an unknown zone, and an interval together with a schedule (400, naming the field)", async () => {
    const { teamId } = await client.createTeam();
    const cases: [Record<string, unknown>, string][] = [
      [{ schedule: "* * * *" }, "schedule"],
      [{ schedule: "0 0 * * * *" }, "schedule"],
      [{ schedule: "61 * * * *" }, "schedule"],
      [{ schedule: "0 3 * * *", timezone: "Mars/Olympus" }, "timezone"],
      [{ schedule: "0 3 * * *", intervalSeconds: 60 }, "intervalSeconds"],
      [{ timezone: "Europe/Berlin" }, "timezone"],
    ];
    for (const [body, field] of cases) {
      const response = await client.admin("POST", `/teams/${teamId}/monitors`, { name: "bad", ...body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body).toMatchObject({ code: "invalid_request" });
      expect((response.body.details as { field: string }[]).map((detail) => detail.field)).toContain(field);
    }
  });

  it("a scheduled monitor past its due time goes down with `missed heartbeat`, naming the schedule", async () => {
    const { teamId, secret } = await client.createTeam();
    const created = await client.admin("POST", `/teams/${teamId}/monitors`, {
      name: "Weekly report",
      schedule: "0 8 * * 1",
      timezone: "America/New_York",
      graceSeconds: 3600,
    });
    const monitor = created.body.monitor as ScheduledMonitor;
    await client.ping(monitor.pingUrl, undefined, { secret });
    // A week passes: the due time is moved into the past instead (the sweeper reads the database's clock).
    await db.query("UPDATE monitors.monitors SET next_due_at = now() - interval '1 second' WHERE id = $1", [
      monitor.id,
    ]);
    const down = await eventually(async () => {
      const current = (await client.admin("GET", `/monitors/${monitor.id}`)).body.monitor as ScheduledMonitor;
      return current.status === "down" ? current : undefined;
    });
    expect(down).toMatchObject({ lastReason: "missed heartbeat", nextDueAt: null });
    const alerts = await eventually(async () => {
      const list = (await client.admin("GET", `/teams/${teamId}/alerts`)).body.alerts as { description: string }[];
      return list.length > 0 ? list : undefined;
    });
    expect(alerts[0]?.description).toContain('schedule "0 8 * * 1" (America/New_York) plus 3600 s grace');
  });
});
