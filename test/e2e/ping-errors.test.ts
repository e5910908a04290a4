// Spec §5 and §7 (ping endpoint) and DESIGN §2's order of checks for pings, through real HTTP.
import { NOT_FOUND_SENTENCES } from "@pulsegate/contract/not-found";
import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { Client, type JsonResponse, sign } from "../support/client.ts";

const client = new Client(inject("stack"));
const past = new Date(Date.now() - 86_400_000).toISOString();

function expectError(response: JsonResponse, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.body).toMatchObject({ code, error: expect.any(String), requestId: expect.any(String) });
  expect((response.body.error as string).length).toBeGreaterThan(5);
}

describe("ping authentication (spec §5)", () => {
  it.each(["GET", "POST"] as const)("%s without a signature: 401 with exactly the spec's body", async (method) => {
    const { pingUrl } = await client.setupMonitor();
    const response = await client.ping(pingUrl, undefined, { method });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({
      error: "Missing webhook signature",
      code: "missing_signature",
      requestId: response.headers.get("x-request-id"),
    });
  });

  it("401 missing_signature comes first, even for an unknown ping URL", async () => {
    const response = await client.ping("no-such-ping-url", { status: "down" });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe("missing_signature");
  });

  it("401 when the signature does not match", async () => {
    const { pingUrl } = await client.setupMonitor();
    expectError(await client.ping(pingUrl, { status: "up" }, { secret: "f".repeat(64) }), 401, "invalid_signature");
    expectError(
      await client.ping(pingUrl, undefined, { method: "GET", secret: "f".repeat(64) }),
      401,
      "invalid_signature",
    );
  });

  it("401 when the signature was computed over different bytes than sent", async () => {
    const { secret, pingUrl } = await client.setupMonitor();
    const signed = JSON.stringify({ status: "down" }, null, 2);
    const sent = JSON.stringify({ status: "down" });
    expectError(await client.ping(pingUrl, sent, { signature: sign(secret, signed) }), 401, "invalid_signature");
  });

  it("an empty body is signed as the empty string: a signature over '{}' does not match", async () => {
    const { secret, pingUrl } = await client.setupMonitor();
    expectError(await client.ping(pingUrl, undefined, { signature: sign(secret, "{}") }), 401, "invalid_signature");
    expect((await client.ping(pingUrl, undefined, { signature: sign(secret, "") })).status).toBe(200);
  });
});

describe("ping errors (spec §7)", () => {
  it("404 for an unknown ping URL", async () => {
    expectError(
      await client.ping("no-such-ping-url-token", undefined, { secret: "a".repeat(64) }),
      404,
      "monitor_not_found",
    );
  });

  it("answers monitor_not_found with one sentence, for an unknown ping URL as for an unknown id", async () => {
    const byUrl = await client.ping("no-such-ping-url-token", undefined, { secret: "a".repeat(64) });
    const byId = await client.admin("GET", "/monitors/mon_nope");
    for (const response of [byUrl, byId]) {
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ code: "monitor_not_found", error: NOT_FOUND_SENTENCES.monitor_not_found });
    }
  });

  it("404 for a paused monitor, even with a valid signature; a bad signature is 404 too (step 2 first)", async () => {
    const { secret, pingUrl, monitorId } = await client.setupMonitor();
    await client.admin("POST", `/monitors/${monitorId}/pause`);
    expectError(await client.ping(pingUrl, { status: "up" }, { secret }), 404, "monitor_not_found");
    expectError(await client.ping(pingUrl, { status: "up" }, { secret: "f".repeat(64) }), 404, "monitor_not_found");
  });

  it("403 when the team's subscription has expired (after the signature check)", async () => {
    const { secret, pingUrl } = await client.setupMonitor({ subscriptionExpiresAt: past });
    expectError(await client.ping(pingUrl, undefined, { secret }), 403, "subscription_expired");
    expectError(await client.ping(pingUrl, undefined, { secret: "f".repeat(64) }), 401, "invalid_signature");
    expectError(
      await client.ping(pingUrl, "not json", { secret, contentType: "text/plain" }),
      403,
      "subscription_expired",
    );
  });

  it("429 for the 11th ping inside a minute: 10 accepted, then Retry-After", async () => {
    const { teamId, secret, pingUrl, monitorId } = await client.setupMonitor();
    const statuses: number[] = [];
    let last: JsonResponse | undefined;
    for (let i = 0; i < 11; i++) {
      last = await client.ping(pingUrl, { status: "up", run: i }, { secret });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 429]);
    expectError(last as JsonResponse, 429, "rate_limited");
    const retryAfter = Number(last?.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // The refused ping was not recorded; the limit is per ping URL.
    const pings = await client.admin("GET", `/monitors/${monitorId}/pings`);
    expect((pings.body.pings as unknown[]).length).toBe(10);
    const other = await client.createMonitor(teamId);
    expect((await client.ping(other.pingUrl, undefined, { secret })).status).toBe(200);
  });

  it("admits exactly 10 of 15 concurrent pings to one ping URL (they share batches)", async () => {
    const { secret, pingUrl, monitorId } = await client.setupMonitor();
    const answers = await Promise.all(Array.from({ length: 15 }, () => client.ping(pingUrl, undefined, { secret })));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([...Array(10).fill(200), ...Array(5).fill(429)]);
    const pings = await client.admin("GET", `/monitors/${monitorId}/pings`);
    expect((pings.body.pings as unknown[]).length).toBe(10);
  });

  it("only accepted pings count toward the limit: ten 400s and 415s leave room for ten valid pings", async () => {
    const { secret, pingUrl } = await client.setupMonitor();
    for (let i = 0; i < 5; i++) {
      expectError(await client.ping(pingUrl, { status: "sideways" }, { secret }), 400, "invalid_request");
      expectError(
        await client.ping(pingUrl, "status=down", { secret, contentType: "application/x-www-form-urlencoded" }),
        415,
        "unsupported_media_type",
      );
    }
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await client.ping(pingUrl, undefined, { secret })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 429]);
  });

  it("a ping refused by the heartbeat quota does not count toward the rate limit either", async () => {
    const { teamId, secret, pingUrl } = await client.setupMonitor({ heartbeatQuotaMonthly: 1 });
    expect((await client.ping(pingUrl, undefined, { secret })).status).toBe(200);
    for (let i = 0; i < 10; i++) {
      expectError(await client.ping(pingUrl, undefined, { secret }), 429, "heartbeat_quota_exhausted");
    }
    // Once the quota allows pings again, nine more fit in the window (ten accepted in all).
    await client.admin("PATCH", `/teams/${teamId}`, { heartbeatQuotaMonthly: 0 });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await client.ping(pingUrl, undefined, { secret })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 429]);
  });

  it("429 heartbeat_quota_exhausted with Retry-After once the monthly heartbeat quota is used", async () => {
    const { secret, pingUrl } = await client.setupMonitor({ heartbeatQuotaMonthly: 2 });
    expect((await client.ping(pingUrl, undefined, { secret })).status).toBe(200);
    expect((await client.ping(pingUrl, { status: "down" }, { secret })).status).toBe(200);
    const refused = await client.ping(pingUrl, undefined, { secret });
    expectError(refused, 429, "heartbeat_quota_exhausted");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // Body rules come before the quota (step 6 before step 7).
    expectError(await client.ping(pingUrl, { status: "sideways" }, { secret }), 400, "invalid_request");
  });

  it("counts concurrent pings of one team exactly, and refuses exactly those past the quota", async () => {
    const { teamId, secret } = await client.createTeam({ heartbeatQuotaMonthly: 5 });
    const monitors = await Promise.all(
      Array.from({ length: 8 }, (_, i) => client.createMonitor(teamId, { name: `concurrent ${i}` })),
    );
    // Sent together, they reach the monitors service in shared batches (one reservation per team and batch).
    const answers = await Promise.all(monitors.map((monitor) => client.ping(monitor.pingUrl, undefined, { secret })));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    for (const refused of answers.filter((answer) => answer.status === 429)) {
      expect(refused.body.code).toBe("heartbeat_quota_exhausted");
    }

    const roomy = await client.createTeam({ heartbeatQuotaMonthly: 100 });
    const more = await Promise.all(
      Array.from({ length: 8 }, (_, i) => client.createMonitor(roomy.teamId, { name: `roomy ${i}` })),
    );
    const accepted = await Promise.all(
      more.map((monitor) => client.ping(monitor.pingUrl, undefined, { secret: roomy.secret })),
    );
    expect(accepted.every((answer) => answer.status === 200)).toBe(true);
    const db = new pg.Client({ connectionString: client.stack.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query<{ used: number }>(
        "SELECT used FROM monitors.heartbeat_quota_usage WHERE team_id = $1",
        [roomy.teamId],
      );
      expect(rows).toEqual([{ used: 8 }]);
    } finally {
      await db.end();
    }
  });
});

describe("ping body rules (DESIGN §2 step 6)", () => {
  it("415 for a non-JSON body, with a sentence that says why (curl -d sends a form type)", async () => {
    const { secret, pingUrl } = await client.setupMonitor();
    const form = await client.ping(pingUrl, "status=down", {
      secret,
      contentType: "application/x-www-form-urlencoded",
    });
    expectError(form, 415, "unsupported_media_type");
    expect(form.body.error).toMatch(/application\/json/);
    expect(form.body.error).toMatch(/curl -d/);
    expectError(
      await client.ping(pingUrl, '{"status":"down"}', { secret, contentType: null }),
      415,
      "unsupported_media_type",
    );
  });

  it.each([
    ["an array", "[]", "body"],
    ["a string", '"up"', "body"],
    ["an unknown status", '{"status":"degraded"}', "status"],
    ["a reason over 200 characters", JSON.stringify({ status: "down", reason: "r".repeat(201) }), "reason"],
    ["a group_key over 200 characters", JSON.stringify({ group_key: "k".repeat(201) }), "group_key"],
    ["metadata that is not an object", '{"metadata":[1]}', "metadata"],
  ])("400 invalid_request for %s", async (_name, body, field) => {
    const { secret, pingUrl } = await client.setupMonitor();
    const response = await client.ping(pingUrl, body, { secret });
    expectError(response, 400, "invalid_request");
    expect((response.body.details as { field: string }[]).map((detail) => detail.field)).toContain(field);
  });

  it("400 invalid_json for broken JSON", async () => {
    const { secret, pingUrl } = await client.setupMonitor();
    expectError(await client.ping(pingUrl, "{nope", { secret }), 400, "invalid_json");
  });

  it("400 for query parameters: the GET form takes none (they would be unsigned)", async () => {
    const { secret, pingUrl } = await client.setupMonitor();
    const response = await client.ping(pingUrl, undefined, { secret, method: "GET", query: "status=down" });
    expectError(response, 400, "invalid_request");
    const message = "Unknown query parameter status: the only one accepted is dryRun.";
    expect(response.body.details).toEqual([{ field: "query.status", message }]);
  });

  it("200 for 200-character reason and group_key; extra top-level fields and group_key fold into metadata", async () => {
    const { secret, pingUrl, monitorId } = await client.setupMonitor();
    const body = {
      status: "down",
      reason: "😀".repeat(200),
      group_key: "g".repeat(200),
      metadata: { region: "eu" },
      host: "backup-1",
      durationMs: 1234,
    };
    const response = await client.ping(pingUrl, body, { secret });
    expect(response.status).toBe(200);
    expect(response.body.pingStatus).toBe("down");
    const pings = await client.admin("GET", `/monitors/${monitorId}/pings`);
    const [ping] = pings.body.pings as { status: string; reason: string; metadata: Record<string, unknown> }[];
    expect(ping).toMatchObject({ status: "down", reason: "😀".repeat(200) });
    expect(ping?.metadata).toEqual({ host: "backup-1", durationMs: 1234, region: "eu", group_key: "g".repeat(200) });
  });

  it("a POST with a JSON content type and no body is an up ping", async () => {
    const { secret, pingUrl } = await client.setupMonitor();
    const response = await client.ping(pingUrl, undefined, { secret, contentType: "application/json" });
    expect(response.status).toBe(200);
    expect(response.body.pingStatus).toBe("up");
  });
});
