// Spec §3 "Outcome of an alert trigger" and §4.1, row by row, through real HTTP.
import { describe, expect, inject, it } from "vitest";
import { Client } from "../support/client.ts";

const client = new Client(inject("stack"));

describe("trigger outcomes", () => {
  it("creates an alert when no open alert has the group key: 201, count 1, exact fields", async () => {
    const { secret, webhookUrl } = await client.setup();
    const response = await client.trigger(webhookUrl, { title: "Disk full", group_key: "disk" }, { secret });
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(["alertId", "message", "occurrenceCount", "status"]);
    expect(response.body).toMatchObject({
      status: "created",
      message: "Alert created and notifications triggered",
      occurrenceCount: 1,
    });
    expect(response.body.alertId).toEqual(expect.any(String));
  });

  it("adds an occurrence to the open alert with the same key: 201, count grows, same alert", async () => {
    const { secret, webhookUrl } = await client.setup();
    const first = await client.trigger(webhookUrl, { title: "Disk full", group_key: "disk" }, { secret });
    const second = await client.trigger(webhookUrl, { title: "Disk full again", group_key: "disk" }, { secret });
    expect(second.status).toBe(201);
    expect(second.body).toEqual({
      alertId: first.body.alertId,
      status: "occurrence_added",
      message: "Occurrence added to existing alert",
      occurrenceCount: 2,
    });
    const occurrences = await client.admin("GET", `/alerts/${first.body.alertId}/occurrences`);
    expect(occurrences.status).toBe(200);
    expect((occurrences.body.occurrences as unknown[]).length).toBe(2);
  });

  it("folds into an acknowledged alert too", async () => {
    const { secret, webhookUrl } = await client.setup();
    const first = await client.trigger(webhookUrl, { title: "CPU", group_key: "cpu" }, { secret });
    expect((await client.admin("POST", `/alerts/${first.body.alertId}/acknowledge`)).status).toBe(200);
    const second = await client.trigger(webhookUrl, { title: "CPU", group_key: "cpu" }, { secret });
    expect(second.body).toMatchObject({ status: "occurrence_added", alertId: first.body.alertId, occurrenceCount: 2 });
  });

  it("reopens a resolved alert within the reopen window: 201, count grows", async () => {
    const { secret, webhookUrl } = await client.setup();
    const first = await client.trigger(webhookUrl, { title: "API down", group_key: "api" }, { secret });
    const resolved = await client.admin("POST", `/alerts/${first.body.alertId}/resolve`);
    expect(resolved.status).toBe(200);
    expect((resolved.body.alert as { status: string }).status).toBe("resolved");
    const again = await client.trigger(webhookUrl, { title: "API down", group_key: "api" }, { secret });
    expect(again.status).toBe(201);
    expect(again.body).toEqual({
      alertId: first.body.alertId,
      status: "reopened",
      message: "Alert reopened and notifications triggered",
      occurrenceCount: 2,
    });
    const alert = await client.admin("GET", `/alerts/${first.body.alertId}`);
    expect(alert.body.alert).toMatchObject({ status: "open", occurrenceCount: 2, resolvedAt: null });
  });

  it("creates a new alert after a resolve when the webhook never reopens (window 0)", async () => {
    const { secret, webhookUrl } = await client.setup({}, { reopenWindowSeconds: 0 });
    const first = await client.trigger(webhookUrl, { title: "API down", group_key: "api" }, { secret });
    await client.admin("POST", `/alerts/${first.body.alertId}/resolve`);
    const again = await client.trigger(webhookUrl, { title: "API down", group_key: "api" }, { secret });
    expect(again.body).toMatchObject({ status: "created", occurrenceCount: 1 });
    expect(again.body.alertId).not.toBe(first.body.alertId);
  });

  it("creates a new alert each time when no group_key is sent", async () => {
    const { secret, webhookUrl } = await client.setup();
    const first = await client.trigger(webhookUrl, { title: "One-off" }, { secret });
    const second = await client.trigger(webhookUrl, { title: "One-off" }, { secret });
    expect(first.body.status).toBe("created");
    expect(second.body.status).toBe("created");
    expect(second.body.alertId).not.toBe(first.body.alertId);
  });

  it("filters by the webhook's rules: 200 with the failing rule as reason, no alert", async () => {
    const { teamId, secret, webhookUrl } = await client.setup(
      {},
      { filterRules: [{ field: "metadata.env", op: "==", value: "production" }] },
    );
    const response = await client.trigger(
      webhookUrl,
      { title: "Staging noise", metadata: { env: "staging" }, group_key: "noise" },
      { secret },
    );
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      status: "filtered",
      message: "Webhook received but filtered by rules",
      reason: 'metadata.env == "production"',
    });
    const accepted = await client.trigger(
      webhookUrl,
      { title: "Prod fire", metadata: { env: "production" } },
      { secret },
    );
    expect(accepted.body.status).toBe("created");
    const alerts = await client.admin("GET", `/teams/${teamId}/alerts`);
    expect((alerts.body.alerts as { title: string }[]).map((alert) => alert.title)).toEqual(["Prod fire"]);
  });

  it("uses the request severity over the webhook default, and the default otherwise", async () => {
    const { secret, webhookUrl } = await client.setup({}, { defaultSeverity: "sev3" });
    const explicit = await client.trigger(webhookUrl, { title: "Pager", severity: "sev0" }, { secret });
    const implicit = await client.trigger(webhookUrl, { title: "Ticket" }, { secret });
    const a = await client.admin("GET", `/alerts/${explicit.body.alertId}`);
    const b = await client.admin("GET", `/alerts/${implicit.body.alertId}`);
    expect((a.body.alert as { severity: string }).severity).toBe("sev0");
    expect((b.body.alert as { severity: string }).severity).toBe("sev3");
  });

  it("folds 50 concurrent triggers with one new key into exactly one alert", async () => {
    const { secret, webhookUrl } = await client.setup({}, { rateLimitPerMinute: 1000 });
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        client.trigger(webhookUrl, { title: `Burst ${i}`, group_key: "burst" }, { secret }),
      ),
    );
    const statuses = responses.map((response) => response.body.status);
    expect(responses.every((response) => response.status === 201)).toBe(true);
    expect(statuses.filter((status) => status === "created")).toHaveLength(1);
    expect(statuses.filter((status) => status === "occurrence_added")).toHaveLength(49);
    expect(new Set(responses.map((response) => response.body.alertId)).size).toBe(1);
    expect(Math.max(...responses.map((response) => response.body.occurrenceCount as number))).toBe(50);
    const alert = await client.admin("GET", `/alerts/${responses[0]?.body.alertId}`);
    expect((alert.body.alert as { occurrenceCount: number }).occurrenceCount).toBe(50);
  });
});
