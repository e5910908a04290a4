// DESIGN §7: the admin API for teams, rotation, webhooks and alerts.
import {
  API_KEY_LIMITS,
  CHANNEL_LIMITS,
  SILENCE_LIMITS,
  TEAM_LIMITS,
  WEBHOOK_LIMITS,
} from "@pulsegate/contract/limits";
import { PAGE_LIMITS } from "@pulsegate/contract/page-cursor";
import { describe, expect, inject, it } from "vitest";
import { Client, uniqueName } from "../support/client.ts";

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
    const name = uniqueName("Payments");
    const created = await client.admin("POST", "/teams", { name, alertQuotaMonthly: 500 });
    expect(created.status).toBe(201);
    expect(created.headers.get("cache-control")).toBe("no-store");
    const secret = created.body.webhookSecret as string;
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    const team = created.body.team as Record<string, unknown>;
    expect(team).toMatchObject({ name, alertQuotaMonthly: 500 });
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
    const created = await client.admin("POST", "/teams", { name: uniqueName("Limits"), [field]: max });
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

  it("bounds a filter rule's field (accepted at its maximum, refused one above) and names its operators", async () => {
    const { teamId } = await client.createTeam();
    const create = (rule: Record<string, unknown>) =>
      client.admin("POST", `/teams/${teamId}/webhooks`, { name: "x", filterRules: [{ op: "exists", ...rule }] });
    const field = (length: number) => `metadata.${"f".repeat(length - "metadata.".length)}`;
    const fieldMax = WEBHOOK_LIMITS.filterFieldMaxLength;
    expect((await create({ field: field(fieldMax) })).status).toBe(201);
    refusesAbove(await create({ field: field(fieldMax + 1) }), "filterRules[0].field", fieldMax);
    // The operators are an enum of the API's description: any other is refused, naming them.
    for (const op of ["o", "o".repeat(500)]) {
      const unknown = await create({ field: "title", op });
      expect(unknown.status).toBe(400);
      expect(unknown.body.details).toEqual([
        { field: "filterRules[0].op", message: expect.stringContaining("starts with") },
      ]);
    }
  });

  it("accepts a filter rule's value of its maximum size and refuses one byte more", async () => {
    const { teamId } = await client.createTeam();
    const create = (value: unknown) =>
      client.admin("POST", `/teams/${teamId}/webhooks`, {
        name: "x",
        filterRules: [{ field: "metadata.host", op: "in", value }],
      });
    const max = WEBHOOK_LIMITS.filterValueMaxBytes;
    // ["h…"]: the string's characters, two quotes and two brackets.
    expect((await create(["h".repeat(max - 4)])).status).toBe(201);
    refusesAbove(await create(["h".repeat(max - 3)]), "filterRules[0].value", max);
  });

  const HOUR = 3_600_000;
  const silenceBody = (body: Record<string, unknown>) => ({
    name: "Limits",
    startsAt: new Date(Date.now() - 60_000).toISOString(),
    endsAt: new Date(Date.now() + HOUR).toISOString(),
    ...body,
  });
  /** A channel URL of exactly `length` characters (private addresses are allowed on this stack). */
  const urlOf = (length: number) => {
    const base = "http://127.0.0.1:9/";
    return base + "u".repeat(length - base.length);
  };
  const padded = (length: number) => "n".repeat(length);

  // [what, path under the team, body with a text of `length` characters, the field, its maximum]
  const textBounds: [string, string, (length: number) => Record<string, unknown>, string, number][] = [
    ["a team's name", "", (n) => ({ name: padded(n) }), "name", TEAM_LIMITS.nameMaxLength],
    ["a webhook's name", "/webhooks", (n) => ({ name: padded(n) }), "name", WEBHOOK_LIMITS.nameMaxLength],
    [
      "an API key's name",
      "/api-keys",
      (n) => ({ name: padded(n), scope: "read" }),
      "name",
      API_KEY_LIMITS.nameMaxLength,
    ],
    ["a silence's name", "/silences", (n) => silenceBody({ name: padded(n) }), "name", SILENCE_LIMITS.nameMaxLength],
    [
      "a silence's group key prefix",
      "/silences",
      (n) => silenceBody({ matchers: { groupKeyPrefix: padded(n) } }),
      "matchers.groupKeyPrefix",
      SILENCE_LIMITS.groupKeyPrefixMaxLength,
    ],
    [
      "a silence's source id",
      "/silences",
      (n) => silenceBody({ matchers: { sourceIds: [padded(n)] } }),
      "matchers.sourceIds[0]",
      SILENCE_LIMITS.sourceIdMaxLength,
    ],
    [
      "a channel's name",
      "/channels",
      (n) => ({ kind: "webhook", name: padded(n), url: urlOf(100) }),
      "name",
      CHANNEL_LIMITS.nameMaxLength,
    ],
    [
      "a channel's URL",
      "/channels",
      (n) => ({ kind: "webhook", name: "x", url: urlOf(n) }),
      "url",
      CHANNEL_LIMITS.urlMaxLength,
    ],
    [
      "a channel's key",
      "/channels",
      (n) => ({ kind: "pagerduty", name: "x", url: urlOf(100), key: "k".repeat(n) }),
      "key",
      CHANNEL_LIMITS.keyMaxLength,
    ],
  ];

  it.each(textBounds)(
    "accepts %s at its maximum length and refuses one more",
    async (_what, path, body, field, max) => {
      const { teamId } = await client.createTeam();
      const url = path === "" ? "/teams" : `/teams/${teamId}${path}`;
      expect((await client.admin("POST", url, body(max))).status).toBe(201);
      refusesAbove(await client.admin("POST", url, body(max + 1)), field, max);
    },
  );

  it("accepts a silence's source ids up to their maximum count and refuses one more", async () => {
    const { teamId } = await client.createTeam();
    const max = SILENCE_LIMITS.maxSourceIds;
    const sourceIds = (count: number) => Array.from({ length: count }, (_, i) => `source-${i}`);
    const create = (count: number) =>
      client.admin("POST", `/teams/${teamId}/silences`, silenceBody({ matchers: { sourceIds: sourceIds(count) } }));
    expect((await create(max)).status).toBe(201);
    refusesAbove(await create(max + 1), "matchers.sourceIds", max);
  });

  it("keeps a team's silences to their maximum, refusing the next with the service's sentence", async () => {
    const { teamId } = await client.createTeam();
    const max = SILENCE_LIMITS.maxPerTeam;
    // Names are unique within a team: one each.
    const create = (i: number) => client.admin("POST", `/teams/${teamId}/silences`, silenceBody({ name: `s${i}` }));
    for (let i = 0; i < max; i++) expect((await create(i)).status).toBe(201);
    const over = await create(max);
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({
      code: "invalid_request",
      details: [{ field: "teamId", message: `A team has at most ${max} silences.` }],
    });
  });

  it("keeps a team's channels to their maximum, refusing the next with 409 and the service's sentence", async () => {
    const { teamId } = await client.createTeam();
    const max = CHANNEL_LIMITS.maxPerTeam;
    const create = (i: number) =>
      client.admin("POST", `/teams/${teamId}/channels`, { kind: "webhook", name: `c${i}`, url: urlOf(50) });
    for (let i = 0; i < max; i++) expect((await create(i)).status).toBe(201);
    const over = await create(max);
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ code: "too_many_channels", error: `A team has at most ${max} channels.` });
  });

  it("accepts a policy's routes and a route's channels up to their maximum counts and refuses one more", async () => {
    const { teamId } = await client.createTeam();
    const channel = await client.admin("POST", `/teams/${teamId}/channels`, {
      kind: "webhook",
      name: "x",
      url: urlOf(50),
    });
    const channelId = (channel.body.channel as { id: string }).id;
    const route = (channels: number) => ({
      severities: ["sev0"],
      channelIds: Array.from({ length: channels }, () => channelId),
    });
    const put = (routes: unknown[]) => client.admin("PUT", `/teams/${teamId}/notification-policy`, { routes });
    const routes = CHANNEL_LIMITS.maxPolicyRoutes;
    expect((await put(Array.from({ length: routes }, () => route(1)))).status).toBe(200);
    refusesAbove(await put(Array.from({ length: routes + 1 }, () => route(1))), "routes", routes);
    const channels = CHANNEL_LIMITS.maxChannelsPerRoute;
    expect((await put([route(channels)])).status).toBe(200);
    refusesAbove(await put([route(channels + 1)]), "routes[0].channelIds", channels);
  });

  it("pages lists with up to the maximum page size and cursor length, refusing one more", async () => {
    const { teamId } = await client.createTeam();
    const list = (query: string) => client.admin("GET", `/teams/${teamId}/alerts?${query}`);
    expect((await list(`limit=${PAGE_LIMITS.max}`)).status).toBe(200);
    const tooMany = await list(`limit=${PAGE_LIMITS.max + 1}`);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({
      code: "invalid_request",
      details: [{ field: "limit", message: `limit must be a whole number from 1 to ${PAGE_LIMITS.max}.` }],
    });
    // A cursor of the maximum length reaches the service (not one it returned); one more does not.
    const atMax = await list(`cursor=${"c".repeat(PAGE_LIMITS.cursorMaxLength)}`);
    expect(atMax.status).toBe(400);
    expect(atMax.body.code).toBe("invalid_cursor");
    refusesAbove(
      await list(`cursor=${"c".repeat(PAGE_LIMITS.cursorMaxLength + 1)}`),
      "cursor",
      PAGE_LIMITS.cursorMaxLength,
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
