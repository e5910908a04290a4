// Every admin date-time (a team's subscriptionExpiresAt, a silence's startsAt and endsAt) must be a
// real instant within INSTANT_LIMITS: the JSON schema's date-time format alone lets a leap second
// and year 0000 through, which had answered 500. Refused with 400 naming the field, and by the
// services themselves for a gRPC caller.
import { status } from "@grpc/grpc-js";
import { callUnary, connectClient } from "@pulsegate/grpc";
import { alerts, auth } from "@pulsegate/proto";
import { afterAll, describe, expect, inject, it } from "vitest";
import { Client } from "../support/client.ts";

const stack = inject("stack");
const client = new Client(stack);
const authClient = connectClient(auth.AuthServiceClient, stack.grpc.auth, { deadlineMs: 5_000 });
const alertsClient = connectClient(alerts.AlertsServiceClient, stack.grpc.alerts, { deadlineMs: 5_000 });
afterAll(() => {
  authClient.close();
  alertsClient.close();
});

const fieldsOf = (body: Record<string, unknown>) =>
  (body.details as { field: string }[] | undefined)?.map((detail) => detail.field);

/** Date-times the JSON schema's `date-time` format accepts but that are no instant every layer holds. */
const UNREAL_INSTANTS = [
  "2030-06-30T23:59:60Z",
  "0000-01-01T00:00:00Z",
  "1969-12-31T23:59:59Z",
  "9999-12-31T23:59:59-01:00",
];

describe("admin date-times that are not real instants", () => {
  it.each(UNREAL_INSTANTS)("a team's subscriptionExpiresAt %s → 400 naming it, on create and update", async (value) => {
    const created = await client.admin("POST", "/teams", { name: "Dates", subscriptionExpiresAt: value });
    expect(created.status).toBe(400);
    expect(created.body.code).toBe("invalid_request");
    expect(fieldsOf(created.body)).toEqual(["subscriptionExpiresAt"]);

    const { teamId } = await client.createTeam();
    const updated = await client.admin("PATCH", `/teams/${teamId}`, { subscriptionExpiresAt: value });
    expect(updated.status).toBe(400);
    expect(fieldsOf(updated.body)).toEqual(["subscriptionExpiresAt"]);
  });

  it.each(UNREAL_INSTANTS)("a silence's startsAt or endsAt %s → 400 naming that field", async (value) => {
    const { teamId } = await client.createTeam();
    const starts = await client.admin("POST", `/teams/${teamId}/silences`, {
      name: "Window",
      startsAt: value,
      endsAt: "9999-12-31T00:00:00Z",
    });
    expect(starts.status).toBe(400);
    expect(starts.body.code).toBe("invalid_request");
    expect(fieldsOf(starts.body)).toEqual(["startsAt"]);
    const ends = await client.admin("POST", `/teams/${teamId}/silences`, {
      name: "Window",
      startsAt: "1970-01-01T00:00:00Z",
      endsAt: value,
    });
    expect(ends.status).toBe(400);
    expect(fieldsOf(ends.body)).toEqual(["endsAt"]);
  });

  it("keeps the first and last instants of the range, with any offset", async () => {
    const { teamId } = await client.createTeam({ subscriptionExpiresAt: "9999-12-31T23:59:59.999Z" });
    const team = await client.admin("GET", `/teams/${teamId}`);
    expect(team.body.team).toMatchObject({ subscriptionExpiresAt: "9999-12-31T23:59:59.999Z" });
    const silence = await client.admin("POST", `/teams/${teamId}/silences`, {
      name: "Always",
      startsAt: "1970-01-01T01:00:00+01:00",
      endsAt: "9999-12-31T23:59:59Z",
    });
    expect(silence.status).toBe(201);
    expect(silence.body.silence).toMatchObject({
      startsAt: "1970-01-01T00:00:00.000Z",
      endsAt: "9999-12-31T23:59:59.000Z",
    });
  });

  it("auth and alerts refuse such instants from a gRPC caller too (INVALID_ARGUMENT)", async () => {
    const yearZero = new Date("0000-01-01T00:00:00Z");
    await expect(
      callUnary(authClient, "createTeam", { name: "Dates", subscriptionExpiresAt: yearZero }),
    ).rejects.toMatchObject({ code: status.INVALID_ARGUMENT });
    const { teamId } = await client.createTeam();
    await expect(
      callUnary(authClient, "updateTeam", {
        teamId,
        subscriptionExpiresAt: yearZero,
        clearSubscriptionExpiresAt: false,
      }),
    ).rejects.toMatchObject({ code: status.INVALID_ARGUMENT });
    const silence = {
      teamId,
      name: "Window",
      startsAt: yearZero,
      endsAt: new Date(),
      recurrence: "",
      matchers: { sourceIds: [], groupKeyPrefix: "", metadataJson: "" },
    };
    await expect(callUnary(alertsClient, "createSilence", silence)).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
    });
  });
});
