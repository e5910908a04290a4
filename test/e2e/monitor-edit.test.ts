// PATCH /admin/v1/monitors/{id}: a JSON merge patch of a monitor's settings, checked as create
// checks them, switching between an interval and a schedule consistently, its due time worked out
// again from its last ping (docs/monitors.md, "Changing a monitor"), and audited.
import { MONITOR_LIMITS } from "@pulsegate/contract/limits";
import { describe, expect, inject, it } from "vitest";
import { Client } from "../support/client.ts";
import { eventually } from "../support/eventually.ts";

const stack = inject("stack");
const client = new Client(stack);

type Monitor = Record<string, unknown> & { id: string; pingUrl: string; lastPingAt: string | null };

async function patch(id: string, body: unknown, token?: string) {
  return client.admin("PATCH", `/monitors/${id}`, body, token);
}

async function patched(id: string, body: unknown): Promise<Monitor> {
  const response = await patch(id, body);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.monitor as Monitor;
}

describe("changing a monitor", () => {
  it("changes the fields sent and keeps the others; null means none where a monitor may have none", async () => {
    const { monitorId, monitor } = await client.setupMonitor({}, { intervalSeconds: 600, maxDurationSeconds: 300 });
    const changed = await patched(monitorId, {
      name: "  Nightly backup (db)  ",
      graceSeconds: 120,
      severity: "sev1",
      repeatIntervalSeconds: 3600,
      requireTimestamp: true,
      reopenWindowSeconds: 60,
    });
    expect(changed).toMatchObject({
      id: monitorId,
      pingUrl: monitor.pingUrl,
      name: "Nightly backup (db)",
      intervalSeconds: 600,
      graceSeconds: 120,
      severity: "sev1",
      maxDurationSeconds: 300,
      repeatIntervalSeconds: 3600,
      requireTimestamp: true,
      reopenWindowSeconds: 60,
      schedule: null,
      status: "idle",
    });
    const cleared = await patched(monitorId, { maxDurationSeconds: null, repeatIntervalSeconds: null });
    expect(cleared).toMatchObject({ maxDurationSeconds: null, repeatIntervalSeconds: null, graceSeconds: 120 });
    expect(await patched(monitorId, {})).toEqual({ ...cleared, createdAt: cleared.createdAt });
    expect((await client.getMonitor(monitorId)).name).toBe("Nightly backup (db)");
  });

  it("switches between an interval and a schedule: a schedule (UTC unless zoned), then an interval again", async () => {
    const { monitorId } = await client.setupMonitor({}, { intervalSeconds: 900 });
    expect(await patched(monitorId, { schedule: "15 3 * * *" })).toMatchObject({
      schedule: "15 3 * * *",
      timezone: "UTC",
    });
    expect(await patched(monitorId, { timezone: "Europe/Berlin" })).toMatchObject({
      schedule: "15 3 * * *",
      timezone: "Europe/Berlin",
    });
    expect(await patched(monitorId, { timezone: null })).toMatchObject({ schedule: "15 3 * * *", timezone: "UTC" });
    // schedule: null is an interval monitor again, with the interval it had.
    expect(await patched(monitorId, { schedule: null })).toMatchObject({
      schedule: null,
      timezone: null,
      intervalSeconds: 900,
    });
    await patched(monitorId, { schedule: "0 * * * *", timezone: "Asia/Tokyo" });
    // An interval given makes it an interval monitor too.
    expect(await patched(monitorId, { intervalSeconds: 120 })).toMatchObject({
      schedule: null,
      timezone: null,
      intervalSeconds: 120,
    });
  });

  it("refuses what create refuses, with the same messages, and changes nothing", async () => {
    const { monitorId } = await client.setupMonitor();
    const before = await client.getMonitor(monitorId);
    const refused = async (body: unknown) => {
      const response = await patch(monitorId, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.code).toBe("invalid_request");
      return response.body.details as { field: string; message: string }[];
    };
    expect(await refused({ schedule: "0 3 * * *", intervalSeconds: 60 })).toEqual([
      { field: "intervalSeconds", message: "Give either intervalSeconds or schedule, not both." },
    ]);
    expect(await refused({ timezone: "Europe/Berlin" })).toEqual([
      { field: "timezone", message: "timezone applies to a schedule; give schedule too." },
    ]);
    expect((await refused({ schedule: "every day" }))[0]?.field).toBe("schedule");
    expect((await refused({ schedule: "0 3 * * *", timezone: "+02:00" }))[0]?.field).toBe("timezone");
    expect((await refused({ graceSeconds: MONITOR_LIMITS.maxGraceSeconds + 1 }))[0]?.field).toBe("graceSeconds");
    expect((await refused({ repeatIntervalSeconds: 59 }))[0]?.field).toBe("repeatIntervalSeconds");
    expect((await refused({ name: "" }))[0]?.field).toBe("name");
    expect((await refused({ name: "bell\u0007" }))[0]?.field).toBe("name");
    // null only where create allows none: a name, an interval, a grace period cannot be none.
    for (const field of ["name", "intervalSeconds", "graceSeconds", "severity", "requireTimestamp"]) {
      expect((await refused({ [field]: null }))[0]?.field).toBe(field);
    }
    // Set at creation only.
    expect((await refused({ signatureScheme: "standard-webhooks" }))[0]?.field).toBe("signatureScheme");
    expect(await client.getMonitor(monitorId)).toEqual(before);
  });

  it("works the due time out again from the last ping: shortened past it, the monitor goes down at the next sweep", async () => {
    const { monitorId, pingUrl, secret } = await client.setupMonitor({}, { intervalSeconds: 3600 });
    expect((await client.ping(pingUrl, undefined, { secret })).status).toBe(200);
    const up = (await client.getMonitor(monitorId)) as unknown as Monitor & { nextDueAt: string };
    const lastPing = Date.parse(up.lastPingAt as string);
    expect(Date.parse(up.nextDueAt)).toBe(lastPing + 3_660_000);

    const longer = (await patched(monitorId, { intervalSeconds: 7200, graceSeconds: 300 })) as Monitor & {
      nextDueAt: string;
    };
    expect(Date.parse(longer.nextDueAt)).toBe(lastPing + 7_500_000);
    expect(longer.status).toBe("up");

    const shorter = (await patched(monitorId, { intervalSeconds: 1, graceSeconds: 0 })) as Monitor & {
      nextDueAt: string;
    };
    expect(Date.parse(shorter.nextDueAt)).toBe(lastPing + 1_000);
    await eventually(
      async () => {
        const monitor = await client.getMonitor(monitorId);
        return monitor.status === "down" ? monitor : undefined;
      },
      { timeoutMs: 20_000, what: "the monitor swept down" },
    );
    expect((await client.getMonitor(monitorId)).lastReason).toBe("missed heartbeat");
  });

  it("applies at once to pings: requireTimestamp refuses an untimestamped ping right after the change", async () => {
    const { monitorId, pingUrl, secret } = await client.setupMonitor();
    expect((await client.ping(pingUrl, undefined, { secret })).status).toBe(200);
    await patched(monitorId, { requireTimestamp: true });
    const refused = await client.ping(pingUrl, undefined, { secret });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe("missing_timestamp");
  });

  it("is audited with the fields sent; unknown, another team's and read-only answers as elsewhere", async () => {
    const { teamId, monitorId } = await client.setupMonitor();
    await patched(monitorId, { graceSeconds: 30, schedule: "0 4 * * *" });
    // The audit log is written by a queue after the answer: wait for the entry, then check it whole.
    const entry = await eventually(
      async () => {
        const log = await client.admin("GET", `/teams/${teamId}/audit-log`);
        return (log.body.entries as Record<string, unknown>[]).find(
          (candidate) => candidate.action === "monitor.update",
        );
      },
      { what: "the monitor.update audit entry" },
    );
    expect(entry).toMatchObject({
      action: "monitor.update",
      target: { kind: "monitor", id: monitorId },
      details: { fields: ["graceSeconds", "schedule"] },
    });
    expect((await patch("mon_doesnotexist", { graceSeconds: 1 })).status).toBe(404);
    const other = await client.createTeam();
    const otherKey = await client.admin("POST", `/teams/${other.teamId}/api-keys`, { name: "w", scope: "write" });
    const foreign = await patch(monitorId, { graceSeconds: 1 }, otherKey.body.token as string);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe("monitor_not_found");
    const readKey = await client.admin("POST", `/teams/${teamId}/api-keys`, { name: "r", scope: "read" });
    expect((await patch(monitorId, { graceSeconds: 1 }, readKey.body.token as string)).status).toBe(403);
  });
});
