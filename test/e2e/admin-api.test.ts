// DESIGN §7: the admin API for teams, rotation, webhooks and alerts.
import { TEAM_LIMITS, WEBHOOK_LIMITS } from "@pulsegate/limits";
import { describe, expect, inject, it } from "vitest";
import { Client } from "../support/client.ts";

const client = new Client(inject("stack"));

describe("admin API", () => {
  it("refuses a missing or wrong token with 401 and the standard error body", async () => {
    const wrong = await client.admin("GET", "/teams/anything", undefined, "not-the-token");
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({
      code: "unauthorized",
      error: expect.any(String),
      requestId: expect.any(String),
    });
    const missing = await fetch(`${client.stack.baseUrl}/admin/v1/teams/anything`);
    expect(missing.status).toBe(401);
  });

  it("creates a team, shows the secret once, and never again", async () => {
    const created = await client.admin("POST", "/teams", { name: "Payments", alertQuotaMonthly: 500 });
    expect(created.status).toBe(201);
    expect(created.headers.get("cache-control")).toBe("no-store");
    const secret = created.body.webhookSecret as string;
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    const team = created.body.team as Record<string, unknown>;
    expect(team).toMatchObject({ name: "Payments", alertQuotaMonthly: 500 });
    const fetched = await client.admin("GET", `/teams/${team.id}`);
    expect(fetched.status).toBe(200);
    expect(JSON.stringify(fetched.body)).not.toContain(secret);
    expect((fetched.body.team as { secretFingerprint: string }).secretFingerprint).toMatch(/^[0-9a-f]{64}$/);
  });

  it("updates a team's subscription and quotas with PATCH, and clears the expiry with null", async () => {
    const { teamId } = await client.createTeam();
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    const patched = await client.admin("PATCH", `/teams/${teamId}`, {
      subscriptionExpiresAt: expires,
      heartbeatQuotaMonthly: 42,
    });
    expect(patched.status).toBe(200);
    expect(patched.body.team).toMatchObject({ subscriptionExpiresAt: expires, heartbeatQuotaMonthly: 42 });
    const cleared = await client.admin("PATCH", `/teams/${teamId}`, { subscriptionExpiresAt: null });
    expect((cleared.body.team as { subscriptionExpiresAt: unknown }).subscriptionExpiresAt ?? null).toBeNull();
  });

  it("answers 404 with a code for unknown ids and 400 with details for bad bodies", async () => {
    const unknown = await client.admin("GET", "/teams/team_doesnotexist");
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("team_not_found");
    const bad = await client.admin("POST", "/teams", { name: "" });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("invalid_request");
    const badRules = await client.admin("POST", `/teams/${(await client.createTeam()).teamId}/webhooks`, {
      name: "x",
      filterRules: [{ field: "metadata.env", op: "matches", value: ".*" }],
    });
    expect(badRules.status).toBe(400);
    expect(badRules.body.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: expect.any(String) })]),
    );
  });

  it("creates, reads, lists and updates webhooks; a webhook URL token carries at least 128 bits", async () => {
    const { teamId } = await client.createTeam();
    const created = await client.admin("POST", `/teams/${teamId}/webhooks`, {
      name: "Alertmanager",
      defaultSeverity: "sev1",
      filterRules: [{ field: "severity", op: "in", value: ["sev0", "sev1"] }],
      rateLimitPerMinute: 30,
      reopenWindowSeconds: 600,
    });
    expect(created.status).toBe(201);
    const webhook = created.body.webhook as Record<string, unknown>;
    expect(webhook).toMatchObject({
      name: "Alertmanager",
      defaultSeverity: "sev1",
      enabled: true,
      rateLimitPerMinute: 30,
      reopenWindowSeconds: 600,
      filterRules: [{ field: "severity", op: "in", value: ["sev0", "sev1"] }],
    });
    expect(Buffer.from(webhook.webhookUrl as string, "base64url").length * 8).toBeGreaterThanOrEqual(128);
    // Without PUBLIC_BASE_URL the address is the one the admin request came to.
    expect(webhook.triggerUrl).toBe(`${client.stack.baseUrl}/api/alerts/trigger/${webhook.webhookUrl}`);
    const listed = await client.admin("GET", `/teams/${teamId}/webhooks`);
    expect((listed.body.webhooks as { id: string }[]).map((w) => w.id)).toEqual([webhook.id]);
    const patched = await client.admin("PATCH", `/webhooks/${webhook.id}`, { enabled: false });
    expect(patched.body.webhook).toMatchObject({ enabled: false, name: "Alertmanager" });
  });

  it("lists a team's alerts by status with a cursor, acknowledges and resolves them", async () => {
    const { teamId, secret, webhookUrl } = await client.setup();
    const ids: string[] = [];
    for (const key of ["a", "b", "c"]) {
      ids.push((await client.trigger(webhookUrl, { title: key, group_key: key }, { secret })).body.alertId as string);
    }
    const acknowledged = await client.admin("POST", `/alerts/${ids[0]}/acknowledge`);
    expect(acknowledged.body.alert).toMatchObject({ status: "acknowledged", acknowledgedAt: expect.any(String) });
    const resolved = await client.admin("POST", `/alerts/${ids[1]}/resolve`);
    expect(resolved.body.alert).toMatchObject({ status: "resolved", resolvedAt: expect.any(String) });
    const refused = await client.admin("POST", `/alerts/${ids[1]}/acknowledge`);
    expect(refused.status).toBe(409);

    const open = await client.admin("GET", `/teams/${teamId}/alerts?status=open`);
    expect((open.body.alerts as { id: string }[]).map((a) => a.id)).toEqual([ids[2]]);

    const firstPage = await client.admin("GET", `/teams/${teamId}/alerts?limit=2`);
    expect((firstPage.body.alerts as unknown[]).length).toBe(2);
    expect(firstPage.body.nextCursor).toEqual(expect.any(String));
    const secondPage = await client.admin(
      "GET",
      `/teams/${teamId}/alerts?limit=2&cursor=${encodeURIComponent(firstPage.body.nextCursor as string)}`,
    );
    const all = [...(firstPage.body.alerts as { id: string }[]), ...(secondPage.body.alerts as { id: string }[])];
    expect(all.map((a) => a.id).sort()).toEqual([...ids].sort());
    expect(secondPage.body.nextCursor).toBeNull();

    const alert = (await client.admin("GET", `/alerts/${ids[2]}`)).body.alert as Record<string, unknown>;
    for (const field of [
      "id",
      "status",
      "groupKey",
      "title",
      "description",
      "severity",
      "occurrenceCount",
      "source",
      "firstSeenAt",
      "lastSeenAt",
      "resolvedAt",
    ]) {
      expect(alert).toHaveProperty(field);
    }
    expect(alert.source).toBe("webhook");
  });

  // Each bound has one home (@pulsegate/limits): the gateway's schema and the enforcing service
  // must accept the maximum and refuse one above it, naming the field.
  const refusesAbove = (response: { status: number; body: Record<string, unknown> }, field: string, max: number) => {
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("invalid_request");
    expect(response.body.details).toEqual(
      expect.arrayContaining([{ field, message: expect.stringContaining(String(max)) }]),
    );
  };

  it.each([
    ["alertQuotaMonthly", TEAM_LIMITS.quotaMax],
    ["heartbeatQuotaMonthly", TEAM_LIMITS.quotaMax],
  ])("accepts a team's %s at its maximum (%i) and refuses one above", async (field, max) => {
    const created = await client.admin("POST", "/teams", { name: "Limits", [field]: max });
    expect(created.status).toBe(201);
    expect(created.body.team).toMatchObject({ [field]: max });
    refusesAbove(await client.admin("POST", "/teams", { name: "Limits", [field]: max + 1 }), field, max);
    const teamId = (created.body.team as { id: string }).id;
    expect((await client.admin("PATCH", `/teams/${teamId}`, { [field]: max })).status).toBe(200);
    refusesAbove(await client.admin("PATCH", `/teams/${teamId}`, { [field]: max + 1 }), field, max);
  });

  it("accepts a rotation's grace at its maximum and refuses one above", async () => {
    const { teamId } = await client.createTeam();
    const rotate = (graceSeconds: number) =>
      client.admin("POST", `/teams/${teamId}/webhook-secret/rotate`, { graceSeconds });
    expect((await rotate(TEAM_LIMITS.maxGraceSeconds)).status).toBe(200);
    refusesAbove(await rotate(TEAM_LIMITS.maxGraceSeconds + 1), "graceSeconds", TEAM_LIMITS.maxGraceSeconds);
  });

  it.each([
    ["rateLimitPerMinute", WEBHOOK_LIMITS.maxRateLimitPerMinute],
    ["reopenWindowSeconds", WEBHOOK_LIMITS.maxReopenWindowSeconds],
    ["repeatIntervalSeconds", WEBHOOK_LIMITS.maxRepeatIntervalSeconds],
  ])("accepts a webhook's %s at its maximum (%i) and refuses one above", async (field, max) => {
    const { teamId } = await client.createTeam();
    const created = await client.admin("POST", `/teams/${teamId}/webhooks`, { name: "Limits", [field]: max });
    expect(created.status).toBe(201);
    expect(created.body.webhook).toMatchObject({ [field]: max });
    refusesAbove(
      await client.admin("POST", `/teams/${teamId}/webhooks`, { name: "Limits", [field]: max + 1 }),
      field,
      max,
    );
    const webhookId = (created.body.webhook as { id: string }).id;
    expect((await client.admin("PATCH", `/webhooks/${webhookId}`, { [field]: max })).status).toBe(200);
    refusesAbove(await client.admin("PATCH", `/webhooks/${webhookId}`, { [field]: max + 1 }), field, max);
  });

  it("accepts a webhook's filter rules up to their maximum count and refuses one more", async () => {
    const { teamId } = await client.createTeam();
    const rules = (count: number) =>
      Array.from({ length: count }, (_, i) => ({ field: "title", op: "!=", value: `r${i}` }));
    const max = WEBHOOK_LIMITS.maxFilterRules;
    const created = await client.admin("POST", `/teams/${teamId}/webhooks`, { name: "x", filterRules: rules(max) });
    expect(created.status).toBe(201);
    refusesAbove(
      await client.admin("POST", `/teams/${teamId}/webhooks`, { name: "x", filterRules: rules(max + 1) }),
      "filterRules",
      max,
    );
  });

  it("gives a new webhook the default rate limit", async () => {
    const { teamId } = await client.createTeam();
    const created = await client.admin("POST", `/teams/${teamId}/webhooks`, { name: "Defaults" });
    expect(created.body.webhook).toMatchObject({ rateLimitPerMinute: WEBHOOK_LIMITS.defaultRateLimitPerMinute });
  });

  it("answers 400 naming the field, never 500, for U+0000 the database cannot store", async () => {
    const name = await client.admin("POST", "/teams", { name: "a\u0000b" });
    expect(name.status).toBe(400);
    expect(name.body.details).toEqual([{ field: "name", message: expect.stringContaining("NUL") }]);
    const { teamId } = await client.createTeam();
    const rule = await client.admin("POST", `/teams/${teamId}/webhooks`, {
      name: "x",
      filterRules: [{ field: "title", op: "==", value: "\u0000" }],
    });
    expect(rule.status).toBe(400);
    expect(rule.body.details).toEqual([{ field: "filterRules[0].value", message: expect.stringContaining("NUL") }]);
    expect((await client.admin("GET", "/alerts/a%00b")).status).toBe(400);
  });

  it("answers an over-long path with the standard error body", async () => {
    const response = await client.admin("GET", `/alerts/${"x".repeat(5000)}`);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(response.body).toMatchObject({
      code: expect.any(String),
      error: expect.any(String),
      requestId: expect.any(String),
    });
  });
});
