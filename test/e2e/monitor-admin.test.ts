// DESIGN §7: the monitors part of the admin API.
import { MONITOR_LIMITS } from "@pulsegate/contract/limits";
import { describe, expect, inject, it } from "vitest";
import { Client } from "../support/client.ts";

const stack = inject("stack");
const client = new Client(stack);

describe("monitors admin API", () => {
  it("creates a monitor with the design's defaults and a ≥128-bit URL-safe ping URL", async () => {
    const { teamId } = await client.createTeam();
    const response = await client.admin("POST", `/teams/${teamId}/monitors`, { name: "Nightly backup" });
    expect(response.status).toBe(201);
    const monitor = response.body.monitor as Record<string, unknown>;
    expect(monitor).toMatchObject({
      teamId,
      name: "Nightly backup",
      status: "idle",
      monitoringActive: false,
      intervalSeconds: 300,
      graceSeconds: 60,
      severity: "sev2",
      reopenWindowSeconds: 3600,
      lastPingAt: null,
      lastPingStatus: null,
      lastReason: null,
    });
    expect(monitor.id).toEqual(expect.any(String));
    // base64url of 24 random bytes: 192 bits.
    expect(monitor.pingUrl).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(monitor.pingEndpoint).toBe(`${stack.baseUrl}/api/ping/${monitor.pingUrl}`);
    const other = await client.createMonitor(teamId);
    expect(other.pingUrl).not.toBe(monitor.pingUrl);
  });

  it("takes interval, grace, severity and reopen window", async () => {
    const { teamId } = await client.createTeam();
    const monitor = await client.createMonitor(teamId, {
      intervalSeconds: 3600,
      graceSeconds: 600,
      severity: "sev0",
      reopenWindowSeconds: 0,
    });
    expect(monitor).toMatchObject({
      intervalSeconds: 3600,
      graceSeconds: 600,
      severity: "sev0",
      reopenWindowSeconds: 0,
    });
  });

  it.each([
    ["a missing name", {}, "name"],
    ["an interval of 0", { name: "x", intervalSeconds: 0 }, "intervalSeconds"],
    ["a negative grace", { name: "x", graceSeconds: -1 }, "graceSeconds"],
    ["an unknown severity", { name: "x", severity: "sev9" }, "severity"],
    ["an unknown field", { name: "x", cron: "* * * * *" }, "cron"],
  ])("400 for %s", async (_name, body, field) => {
    const { teamId } = await client.createTeam();
    const response = await client.admin("POST", `/teams/${teamId}/monitors`, body);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("invalid_request");
    expect((response.body.details as { field: string }[]).map((detail) => detail.field)).toContain(field);
  });

  it("404 for an unknown team, an unknown monitor; 401 without the admin token", async () => {
    expect((await client.admin("POST", "/teams/no-such-team/monitors", { name: "x" })).status).toBe(404);
    const missing = await client.admin("GET", "/monitors/mon_nope");
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("monitor_not_found");
    expect((await client.admin("POST", "/monitors/mon_nope/pause")).status).toBe(404);
    expect((await client.admin("GET", "/monitors/mon_nope/pings")).status).toBe(404);
    expect((await client.admin("GET", "/monitors/mon_nope", undefined, "wrong-token")).status).toBe(401);
  });

  it("lists a team's monitors, oldest first", async () => {
    const { teamId } = await client.createTeam();
    const a = await client.createMonitor(teamId, { name: "a" });
    const b = await client.createMonitor(teamId, { name: "b" });
    const response = await client.admin("GET", `/teams/${teamId}/monitors`);
    expect(response.status).toBe(200);
    expect((response.body.monitors as { id: string }[]).map((monitor) => monitor.id)).toEqual([a.id, b.id]);
    expect(response.body.nextCursor).toBeNull();
  });

  it("pause and resume are idempotent; resume leaves a running monitor alone", async () => {
    const { secret, pingUrl, monitorId } = await client.setupMonitor();
    await client.ping(pingUrl, undefined, { secret });
    const resumedUp = await client.admin("POST", `/monitors/${monitorId}/resume`);
    expect(resumedUp.body.monitor).toMatchObject({ status: "up", monitoringActive: true });
    await client.admin("POST", `/monitors/${monitorId}/pause`);
    const again = await client.admin("POST", `/monitors/${monitorId}/pause`);
    expect(again.body.monitor).toMatchObject({ status: "paused", monitoringActive: false });
    await client.admin("POST", `/monitors/${monitorId}/resume`);
    const twice = await client.admin("POST", `/monitors/${monitorId}/resume`);
    expect(twice.body.monitor).toMatchObject({ status: "idle", monitoringActive: false });
  });

  it("lists pings newest first with a cursor", async () => {
    const { secret, pingUrl, monitorId } = await client.setupMonitor();
    for (const status of ["up", "down", "up"] as const) {
      await client.ping(pingUrl, { status, reason: `r-${status}` }, { secret });
    }
    const first = await client.admin("GET", `/monitors/${monitorId}/pings?limit=2`);
    expect(first.status).toBe(200);
    const page = first.body.pings as { status: string; reason: string; method: string; receivedAt: string }[];
    expect(page.map((ping) => ping.status)).toEqual(["up", "down"]);
    expect(page[0]).toMatchObject({ reason: "r-up", method: "POST", receivedAt: expect.any(String) });
    const second = await client.admin("GET", `/monitors/${monitorId}/pings?limit=2&cursor=${first.body.nextCursor}`);
    expect((second.body.pings as { status: string }[]).map((ping) => ping.status)).toEqual(["up"]);
    expect(second.body.nextCursor).toBeNull();
    expect((await client.admin("GET", `/monitors/${monitorId}/pings?cursor=abc`)).status).toBe(400);
  });
  // Each bound has one home (@pulsegate/limits): the gateway's schema and the monitors service
  // must accept the maximum and refuse one above it, naming the field.
  it.each([
    ["intervalSeconds", MONITOR_LIMITS.maxIntervalSeconds],
    ["graceSeconds", MONITOR_LIMITS.maxGraceSeconds],
    ["reopenWindowSeconds", MONITOR_LIMITS.maxReopenWindowSeconds],
    ["maxDurationSeconds", MONITOR_LIMITS.maxMaxDurationSeconds],
    ["repeatIntervalSeconds", MONITOR_LIMITS.maxRepeatIntervalSeconds],
  ])("accepts a monitor's %s at its maximum (%i) and refuses one above", async (field, max) => {
    const { teamId } = await client.createTeam();
    const created = await client.admin("POST", `/teams/${teamId}/monitors`, { name: "Limits", [field]: max });
    expect(created.status).toBe(201);
    expect(created.body.monitor).toMatchObject({ [field]: max });
    const refused = await client.admin("POST", `/teams/${teamId}/monitors`, { name: "Limits", [field]: max + 1 });
    expect(refused.status).toBe(400);
    expect(refused.body.details).toEqual(
      expect.arrayContaining([{ field, message: expect.stringContaining(String(max)) }]),
    );
  });

  const timezoneRule =
    "timezone must be an IANA time zone name spelled as the tz database spells it, such as Europe/Berlin or UTC (not an offset such as +02:00).";

  const refusesLonger = (response: { status: number; body: Record<string, unknown> }, field: string, max: number) => {
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      code: "invalid_request",
      details: [{ field, message: `${field} must NOT have more than ${max} characters.` }],
    });
  };

  it("accepts a monitor's name and schedule at their maximum length and refuses one more", async () => {
    const { teamId } = await client.createTeam();
    const create = (body: Record<string, unknown>) =>
      client.admin("POST", `/teams/${teamId}/monitors`, { name: "Limits", ...body });
    const name = MONITOR_LIMITS.nameMaxLength;
    expect((await create({ name: "n".repeat(name) })).status).toBe(201);
    refusesLonger(await create({ name: "n".repeat(name + 1) }), "name", name);
    // Cron fields are separated by any run of blanks, so a long schedule is still a valid one.
    const schedule = (length: number) => `0 3 * *${" ".repeat(length - 8)}*`;
    const scheduleMax = MONITOR_LIMITS.scheduleMaxLength;
    expect((await create({ schedule: schedule(scheduleMax) })).status).toBe(201);
    refusesLonger(await create({ schedule: schedule(scheduleMax + 1) }), "schedule", scheduleMax);
  });

  it("takes a schedule's time zone as an IANA name only, spelled as the tz database spells it", async () => {
    const { teamId } = await client.createTeam();
    const create = (timezone: string) =>
      client.admin("POST", `/teams/${teamId}/monitors`, { name: `Zone ${timezone}`, schedule: "0 3 * * *", timezone });
    // Canonical names, the default, Etc zones, and the database's other names (Asia/Kolkata, US/Eastern).
    for (const timezone of ["UTC", "Europe/Berlin", "Etc/UTC", "Etc/GMT-14", "Asia/Kolkata", "US/Eastern"]) {
      const created = await create(timezone);
      expect(created.status, timezone).toBe(201);
      expect(created.body.monitor).toMatchObject({ timezone });
    }
    // Offsets are not zone names; a name in another letter case is not the name.
    for (const timezone of ["+14:00", "-05:00", "+0530", "utc", "Utc", "europe/berlin", "etc/gmt-14", "asia/kolkata"]) {
      const refused = await create(timezone);
      expect(refused.status, timezone).toBe(400);
      expect(refused.body).toMatchObject({
        code: "invalid_request",
        details: [{ field: "timezone", message: timezoneRule }],
      });
    }
  });

  it("lets a time zone of the maximum length reach monitors (which knows no such zone) and refuses one more", async () => {
    const { teamId } = await client.createTeam();
    const create = (timezone: string) =>
      client.admin("POST", `/teams/${teamId}/monitors`, { name: "Limits", schedule: "0 3 * * *", timezone });
    const max = MONITOR_LIMITS.timezoneMaxLength;
    const atMax = await create("Z".repeat(max));
    expect(atMax.status).toBe(400);
    expect(atMax.body).toMatchObject({
      details: [{ field: "timezone", message: timezoneRule }],
    });
    refusesLonger(await create("Z".repeat(max + 1)), "timezone", max);
  });
});
