// Team API keys: scoped to one team, read or write, shown once, revocable, with last used.
import { describe, expect, inject, it } from "vitest";
import { Client } from "../support/client.ts";
import { eventually } from "../support/eventually.ts";

const client = new Client(inject("stack"));

type ApiKeyJson = {
  id: string;
  teamId: string;
  name: string;
  scope: string;
  tokenPrefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
};

async function createKey(teamId: string, scope: "read" | "write", name = `${scope} key`) {
  const response = await client.admin("POST", `/teams/${teamId}/api-keys`, { name, scope });
  if (response.status !== 201) throw new Error(`create key: ${response.status} ${JSON.stringify(response.body)}`);
  return { apiKey: response.body.apiKey as ApiKeyJson, token: response.body.token as string };
}

/** The answer without its request id, to compare two answers. */
const withoutId = (body: Record<string, unknown>) => ({ ...body, requestId: undefined });

describe("team API keys", () => {
  it("are shown once: the token in the create answer only, never in a list or a read", async () => {
    const { teamId } = await client.createTeam();
    const created = await client.admin("POST", `/teams/${teamId}/api-keys`, { name: "CI deploys", scope: "write" });
    expect(created.status).toBe(201);
    expect(created.headers.get("cache-control")).toBe("no-store");
    const token = created.body.token as string;
    expect(token).toMatch(/^pgk_[A-Za-z0-9_-]{43}$/);
    const apiKey = created.body.apiKey as ApiKeyJson;
    expect(apiKey).toEqual({
      id: expect.stringMatching(/^key_/),
      teamId,
      name: "CI deploys",
      scope: "write",
      tokenPrefix: token.slice(0, 12),
      createdAt: expect.any(String),
      lastUsedAt: null,
      revokedAt: null,
    });

    const list = await client.admin("GET", `/teams/${teamId}/api-keys`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ apiKeys: [apiKey], nextCursor: null });
    const one = await client.admin("GET", `/api-keys/${apiKey.id}`);
    expect(one.body).toEqual({ apiKey });
    for (const answer of [list, one]) expect(JSON.stringify(answer.body)).not.toContain(token.slice(12));
  });

  it("refuses a bad body, an unknown team and an unknown key like every other admin resource", async () => {
    const { teamId } = await client.createTeam();
    const bad = await client.admin("POST", `/teams/${teamId}/api-keys`, { name: "x", scope: "admin" });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("invalid_request");
    const noTeam = await client.admin("POST", "/teams/team_nope/api-keys", { name: "x", scope: "read" });
    expect(noTeam.status).toBe(404);
    expect(noTeam.body.code).toBe("team_not_found");
    const noKey = await client.admin("GET", "/api-keys/key_nope");
    expect(noKey.status).toBe(404);
    expect(noKey.body).toMatchObject({
      code: "api_key_not_found",
      error: expect.any(String),
      requestId: expect.any(String),
    });
  });

  it("lets a read key GET its team but change nothing (403 forbidden)", async () => {
    const { teamId, webhookId } = await client.setup();
    const { token } = await createKey(teamId, "read");
    expect((await client.admin("GET", `/teams/${teamId}`, undefined, token)).status).toBe(200);
    expect((await client.admin("GET", `/teams/${teamId}/webhooks`, undefined, token)).status).toBe(200);
    expect((await client.admin("GET", `/webhooks/${webhookId}`, undefined, token)).status).toBe(200);
    for (const [method, path, body] of [
      ["POST", `/teams/${teamId}/webhooks`, { name: "more" }],
      ["PATCH", `/webhooks/${webhookId}`, { enabled: false }],
      ["POST", `/teams/${teamId}/api-keys`, { name: "escalate", scope: "write" }],
      ["POST", `/teams/${teamId}/webhook-secret/rotate`, {}],
    ] as const) {
      const refused = await client.admin(method, path, body, token);
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(refused.body).toMatchObject({ code: "forbidden", requestId: expect.any(String) });
    }
    const webhook = await client.admin("GET", `/webhooks/${webhookId}`);
    expect((webhook.body.webhook as { enabled: boolean }).enabled).toBe(true);
  });

  it("lets a write key change its own team, and nothing of another team's (404, as if it did not exist)", async () => {
    const own = await client.setup();
    const other = await client.setup();
    const { token } = await createKey(own.teamId, "write");

    const created = await client.admin("POST", `/teams/${own.teamId}/webhooks`, { name: "by key" }, token);
    expect(created.status).toBe(201);
    const patched = await client.admin("PATCH", `/webhooks/${own.webhookId}`, { name: "renamed" }, token);
    expect(patched.status).toBe(200);
    const monitor = await client.admin("POST", `/teams/${own.teamId}/monitors`, { name: "by key" }, token);
    expect(monitor.status).toBe(201);

    const otherMonitor = await client.createMonitor(other.teamId);
    const triggered = await client.trigger(other.webhookUrl, { title: "theirs" }, { secret: other.secret });
    expect(triggered.status).toBe(201);
    const otherAlertId = triggered.body.alertId as string;

    const cases: [string, string, unknown, string][] = [
      ["GET", `/webhooks/${other.webhookId}`, undefined, "/webhooks/wh_doesnotexist"],
      ["PATCH", `/webhooks/${other.webhookId}`, { enabled: false }, "/webhooks/wh_doesnotexist"],
      ["GET", `/monitors/${otherMonitor.id}`, undefined, "/monitors/mon_doesnotexist"],
      ["POST", `/monitors/${otherMonitor.id}/pause`, undefined, "/monitors/mon_doesnotexist/pause"],
      ["GET", `/alerts/${otherAlertId}`, undefined, "/alerts/alert_doesnotexist"],
      ["POST", `/alerts/${otherAlertId}/resolve`, undefined, "/alerts/alert_doesnotexist/resolve"],
      ["GET", `/teams/${other.teamId}`, undefined, "/teams/team_doesnotexist"],
      ["GET", `/teams/${other.teamId}/webhooks`, undefined, "/teams/team_doesnotexist/webhooks"],
      ["POST", `/teams/${other.teamId}/api-keys`, { name: "x", scope: "read" }, "/teams/team_doesnotexist/api-keys"],
    ];
    for (const [method, path, body, unknownPath] of cases) {
      const refused = await client.admin(method, path, body, token);
      const unknown = await client.admin(method, unknownPath, body);
      expect(refused.status, `${method} ${path}`).toBe(404);
      expect(withoutId(refused.body), `${method} ${path}`).toEqual(withoutId(unknown.body));
    }
    // Nothing of the other team changed.
    expect((await client.admin("GET", `/webhooks/${other.webhookId}`)).body.webhook).toMatchObject({ enabled: true });
    expect((await client.admin("GET", `/alerts/${otherAlertId}`)).body.alert).toMatchObject({ status: "open" });
    expect((await client.getMonitor(otherMonitor.id)).status).toBe("idle");
  });

  it("keeps creating and listing teams, and subscriptions and quotas, to the admin token (403)", async () => {
    const { teamId } = await client.createTeam();
    const { token } = await createKey(teamId, "write");
    for (const [method, path, body] of [
      ["POST", "/teams", { name: "mine now" }],
      ["GET", "/teams", undefined],
      ["PATCH", `/teams/${teamId}`, { alertQuotaMonthly: 0 }],
      ["PATCH", `/teams/${teamId}`, { subscriptionExpiresAt: null }],
    ] as const) {
      const refused = await client.admin(method, path, body, token);
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(refused.body.code).toBe("forbidden");
    }
    const renamed = await client.admin("PATCH", `/teams/${teamId}`, { name: "Renamed by key" }, token);
    expect(renamed.status).toBe(200);
    const teams = await client.admin("GET", "/teams?limit=200");
    expect(teams.status).toBe(200);
    expect(teams.body.teams).toEqual(expect.any(Array));
  });

  it("stops a revoked key at once (401), and revoking again changes nothing", async () => {
    const { teamId } = await client.createTeam();
    const { apiKey, token } = await createKey(teamId, "write");
    expect((await client.admin("GET", `/teams/${teamId}`, undefined, token)).status).toBe(200);
    const revoked = await client.admin("POST", `/api-keys/${apiKey.id}/revoke`, undefined, token);
    expect(revoked.status).toBe(200);
    const revokedAt = (revoked.body.apiKey as ApiKeyJson).revokedAt;
    expect(revokedAt).toEqual(expect.any(String));
    const refused = await client.admin("GET", `/teams/${teamId}`, undefined, token);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe("unauthorized");
    const again = await client.admin("POST", `/api-keys/${apiKey.id}/revoke`);
    expect(again.status).toBe(200);
    expect((again.body.apiKey as ApiKeyJson).revokedAt).toBe(revokedAt);
  });

  it("answers 401 for a token of the right shape that is no key", async () => {
    const forged = `pgk_${"A".repeat(43)}`;
    const refused = await client.admin("GET", "/teams/anything", undefined, forged);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe("unauthorized");
  });

  it("shows when a key was last used", async () => {
    const { teamId } = await client.createTeam();
    const { apiKey, token } = await createKey(teamId, "read");
    const before = Date.now();
    expect((await client.admin("GET", `/teams/${teamId}/api-keys`, undefined, token)).status).toBe(200);
    const lastUsedAt = await eventually(
      async () => {
        const answer = await client.admin("GET", `/api-keys/${apiKey.id}`);
        return (answer.body.apiKey as ApiKeyJson).lastUsedAt ?? undefined;
      },
      { what: "lastUsedAt" },
    );
    expect(Date.parse(lastUsedAt)).toBeGreaterThanOrEqual(before - 1_000);
  });
});
