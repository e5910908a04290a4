// The monitors service's client of alerts (the incident worker's AlertsPort) against the real
// alerts service: alerts' domain errors come back through gRPC as domain errors, and decide
// whether an incident action is done or retried; an action sent again is applied once. (An
// InvalidError, "set aside", cannot be provoked through this typed client; packages/grpc's unit
// tests carry it through gRPC.)
import { randomUUID } from "node:crypto";
import { connectClient } from "@pulsegate/grpc";
import { alerts } from "@pulsegate/proto";
import { afterAll, describe, expect, inject, it } from "vitest";
import { alertsOverGrpc } from "../../services/monitors/src/grpc/alerts-client.ts";
import type { IncidentAlert } from "../../services/monitors/src/incidents/alerts-port.ts";
import { Client } from "../support/client.ts";

const stack = inject("stack");
const client = new Client(stack);
const alertsClient = connectClient(alerts.AlertsServiceClient, stack.grpc.alerts, { deadlineMs: 5_000 });
const deadClient = connectClient(alerts.AlertsServiceClient, "127.0.0.1:1", { deadlineMs: 1_000 });
afterAll(() => {
  alertsClient.close();
  deadClient.close();
});
const port = alertsOverGrpc(alertsClient);

const incident = (teamId: string, title: string): IncidentAlert => ({
  actionId: String(Math.floor(Math.random() * 1e9)),
  teamId,
  monitorId: randomUUID(),
  title,
  description: "",
  severity: "sev2",
  metadata: null,
  groupKey: `monitor:${randomUUID()}`,
  alertQuotaMonthly: 0,
  reopenWindowSeconds: 0,
  repeatIntervalSeconds: null,
});

describe("monitors' alerts client", () => {
  it("raises an incident, resolves its alert, and takes an alert already gone as resolved (NotFoundError)", async () => {
    const { teamId } = await client.createTeam();
    const raised = await port.raise(incident(teamId, "db-1 down"));
    expect(raised).toMatchObject({ kind: "raised", outcome: "created" });
    expect(await port.resolve((raised as { alertId: string }).alertId)).toBe("resolved");
    expect(await port.resolve(randomUUID())).toBe("resolved");
  });

  it("raises an action sent again (its answer lost) once: the repeat is answered with the same alert", async () => {
    const { teamId } = await client.createTeam();
    const action = incident(teamId, "db-2 down");
    const first = await port.raise(action);
    expect(first).toMatchObject({ kind: "raised", outcome: "created" });
    expect(await port.raise(action)).toEqual(first);
    const alertId = (first as { alertId: string }).alertId;
    const stored = await client.admin("GET", `/alerts/${alertId}`);
    expect((stored.body.alert as { occurrenceCount: number }).occurrenceCount).toBe(1);
    // Another action of the same monitor and incident folds in, as before.
    const next = { ...action, actionId: `${action.actionId}1` };
    expect(await port.raise(next)).toMatchObject({ kind: "raised", outcome: "occurrence_added", alertId });
  });

  it("throws, to be retried, when alerts cannot be reached (UnavailableError is no refusal)", async () => {
    const { teamId } = await client.createTeam();
    await expect(alertsOverGrpc(deadClient).raise(incident(teamId, "db-1 down"))).rejects.toThrow();
    await expect(alertsOverGrpc(deadClient).resolve(randomUUID())).rejects.toThrow();
  });
});
