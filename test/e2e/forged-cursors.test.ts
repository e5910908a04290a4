// A page cursor is opaque: any cursor the server did not make — a date PostgreSQL cannot hold, an
// id with NUL, a bigint out of range, a cursor sent to a list that makes none — is 400
// invalid_cursor naming `cursor`, and INVALID_ARGUMENT when it reaches a service over gRPC. Such
// cursors had answered 500, and one with NUL a "retry shortly" 503 that no retry could fix.
import { status } from "@grpc/grpc-js";
import { callUnary, connectClient } from "@pulsegate/grpc";
import { alerts, auth, monitors } from "@pulsegate/proto";
import fc from "fast-check";
import { afterAll, describe, expect, inject, it } from "vitest";
import { Client } from "../support/client.ts";

const stack = inject("stack");
const client = new Client(stack);
const authClient = connectClient(auth.AuthServiceClient, stack.grpc.auth, { deadlineMs: 5_000 });
const alertsClient = connectClient(alerts.AlertsServiceClient, stack.grpc.alerts, { deadlineMs: 5_000 });
const monitorsClient = connectClient(monitors.MonitorsServiceClient, stack.grpc.monitors, { deadlineMs: 5_000 });
afterAll(() => {
  authClient.close();
  alertsClient.close();
  monitorsClient.close();
});

const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** Keyset cursors no list ever returned: dates PostgreSQL cannot hold, ids it cannot keep, bytes decoding skips. */
const FORGED_CURSORS = [
  cursorOf(["0000-01-01T00:00:00.000Z", "x"]),
  cursorOf(["+275760-09-13T00:00:00.000Z", "x"]),
  cursorOf(["-1", "x"]),
  cursorOf(["2026-01-01T00:00:00.000Z", "x\u0000"]),
  cursorOf(["2026-01-01T00:00:00.000Z", "\ud800"]),
  cursorOf(["2026-01-01", "x"]),
  `${cursorOf(["2026-01-01T00:00:00.000Z", "team_x"])}!!`,
];

/** Bigint cursors no occurrence or ping page returned. */
const FORGED_ID_CURSORS = ["9223372036854775808", "9999999999999999999", "0x10", "1e3", "-5", "012", " 12", "1.0"];

const refusal = (path: string) => ({
  path,
  status: 400,
  body: expect.objectContaining({
    code: "invalid_cursor",
    details: [{ field: "cursor", message: "The cursor is not one this API returned." }],
  }),
});

async function list(path: string, cursor: string) {
  const response = await client.admin("GET", `${path}?cursor=${encodeURIComponent(cursor)}`);
  return { path, status: response.status, body: response.body };
}

describe("page cursors the server did not make", () => {
  it.each(FORGED_CURSORS)("%s → 400 invalid_cursor on teams, alerts and the audit log", async (cursor) => {
    const { teamId } = await client.createTeam();
    for (const path of ["/teams", `/teams/${teamId}/alerts`, `/teams/${teamId}/audit-log`]) {
      expect(await list(path, cursor)).toEqual(refusal(path));
    }
  });

  it("any string or JSON as a cursor is a page or 400 invalid_cursor, never a 5xx", async () => {
    const { teamId } = await client.createTeam();
    const path = `/teams/${teamId}/alerts`;
    const forged = fc.oneof(
      fc.string({ maxLength: 40 }).filter((text) => !text.includes("\u0000")),
      fc.jsonValue({ maxDepth: 2 }).map(cursorOf),
      fc.tuple(fc.string({ maxLength: 30 }), fc.string({ maxLength: 10 })).map(cursorOf),
    );
    await fc.assert(
      fc.asyncProperty(forged, async (cursor) => {
        const answer = await list(path, cursor);
        expect(cursor === "" ? answer.status : answer).toEqual(cursor === "" ? 200 : refusal(path));
      }),
      { numRuns: 40 },
    );
  });

  it.each(FORGED_ID_CURSORS)(
    "%j → 400 invalid_cursor on an alert's occurrences and a monitor's pings",
    async (cursor) => {
      const { teamId, secret, monitorId } = await client.setupMonitor();
      const hook = await client.createWebhook(teamId);
      const triggered = await client.trigger(hook.webhookUrl, { title: "t" }, { secret });
      for (const path of [`/alerts/${triggered.body.alertId}/occurrences`, `/monitors/${monitorId}/pings`]) {
        expect(await list(path, cursor)).toEqual(refusal(path));
      }
    },
  );

  it("a list answered in one page makes no cursor: any cursor sent to it is 400 invalid_cursor", async () => {
    const { teamId, secret, webhookUrl } = await client.setup();
    const triggered = await client.trigger(webhookUrl, { title: "t" }, { secret });
    for (const path of [
      `/teams/${teamId}/webhooks`,
      `/teams/${teamId}/monitors`,
      `/teams/${teamId}/channels`,
      `/teams/${teamId}/silences`,
      `/teams/${teamId}/api-keys`,
      `/alerts/${triggered.body.alertId}/deliveries`,
    ]) {
      expect(await list(path, cursorOf(["2026-01-01T00:00:00.000Z", "x"]))).toEqual(refusal(path));
    }
  });

  it("a forged cursor reaching a service is INVALID_ARGUMENT, never INTERNAL or UNAVAILABLE", async () => {
    const { teamId, monitorId } = await client.setupMonitor();
    const invalid = { code: status.INVALID_ARGUMENT };
    for (const cursor of FORGED_CURSORS) {
      await expect(callUnary(authClient, "listTeams", { limit: 0, cursor })).rejects.toMatchObject(invalid);
      await expect(callUnary(authClient, "listAuditEntries", { teamId, limit: 0, cursor })).rejects.toMatchObject(
        invalid,
      );
      await expect(
        callUnary(alertsClient, "listAlerts", {
          teamId,
          state: alerts.AlertStatus.ALERT_STATUS_UNSPECIFIED,
          limit: 0,
          cursor,
        }),
      ).rejects.toMatchObject(invalid);
    }
    for (const cursor of FORGED_ID_CURSORS) {
      await expect(callUnary(monitorsClient, "listPings", { monitorId, limit: 0, cursor })).rejects.toMatchObject(
        invalid,
      );
    }
  });

  it("the cursors the lists return still page to the end", async () => {
    const { teamId, secret, webhookUrl } = await client.setup();
    for (const key of ["a", "b", "c"]) await client.trigger(webhookUrl, { title: key, group_key: key }, { secret });
    const first = await client.admin("GET", `/teams/${teamId}/alerts?limit=2`);
    const second = await client.admin("GET", `/teams/${teamId}/alerts?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.status).toBe(200);
    expect((second.body.alerts as unknown[]).length).toBe(1);
    expect(second.body.nextCursor).toBeNull();
  });
});
