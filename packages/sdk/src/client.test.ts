// The client against a real HTTP server on 127.0.0.1 that answers from a script:
// retries, Retry-After, timeouts and the bytes sent, seen from the server's side.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { PulsegateAdmin } from "./admin.ts";
import { PulsegateClient } from "./client.ts";
import { PulsegateError } from "./errors.ts";
import { verify } from "./signature.ts";

const SECRET = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

type Received = { method: string; url: string; headers: IncomingHttpHeaders; body: Buffer; at: number };
/** One scripted answer: status, headers and JSON body; "hang" never answers; "drop" closes the socket. */
type Answer = { status: number; headers?: Record<string, string>; body?: unknown } | "hang" | "drop";

type ScriptedServer = { baseUrl: string; received: Received[]; server: Server };

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  }
});

/** Answers the n-th request with answers[n] (the last one repeats). */
async function scriptedServer(answers: Answer[]): Promise<ScriptedServer> {
  const received: Received[] = [];
  const server = createServer((request, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({
        method: request.method ?? "",
        url: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks),
        at: Date.now(),
      });
      const answer = answers[Math.min(received.length, answers.length) - 1] as Answer;
      if (answer === "hang") return;
      if (answer === "drop") return request.socket.destroy();
      response.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
      response.end(answer.body === undefined ? "" : JSON.stringify(answer.body));
    });
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}`, received, server };
}

const created = {
  status: 201,
  body: {
    alertId: "alert_1",
    status: "created",
    message: "Alert created and notifications triggered",
    occurrenceCount: 1,
  },
};
const pinged = {
  status: 200,
  body: {
    message: "Ping received",
    monitor: { name: "Backup", status: "up", monitoringActive: true },
    pingStatus: "up",
  },
};
const rateLimited = (seconds: string) => ({
  status: 429,
  headers: { "retry-after": seconds, "x-request-id": "req-429" },
  body: { error: "Too many requests for this webhook", code: "rate_limited", requestId: "req-429" },
});
const unavailable = { status: 503, body: { error: "unavailable", code: "service_unavailable", requestId: "r" } };

describe("PulsegateClient retries", () => {
  it("sends one Idempotency-Key on every attempt of a call, and a new one for the next call", async () => {
    const stub = await scriptedServer([unavailable, "drop", created, pinged]);
    const client = new PulsegateClient({ baseUrl: stub.baseUrl, secret: SECRET, retryDelay: { baseDelayMs: 1 } });
    await client.trigger("hook_token", { title: "Backup failed" });
    await client.ping("ping_token");
    const keys = stub.received.map((request) => request.headers["idempotency-key"]);
    expect(keys).toHaveLength(4);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect([keys[1], keys[2]]).toEqual([keys[0], keys[0]]);
    expect(keys[3]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[3]).not.toBe(keys[0]);
  });

  it("sends the caller's own Idempotency-Key when given", async () => {
    const stub = await scriptedServer([created, pinged]);
    const client = new PulsegateClient({ baseUrl: stub.baseUrl, secret: SECRET });
    await client.trigger("hook_token", { title: "x" }, { idempotencyKey: "deploy-4711" });
    await client.ping("ping_token", undefined, { idempotencyKey: "backup-2026-11-25" });
    expect(stub.received.map((request) => request.headers["idempotency-key"])).toEqual([
      "deploy-4711",
      "backup-2026-11-25",
    ]);
  });

  it("answers 429 with Retry-After, then 201: waits as told and sends the same signed bytes again", async () => {
    const stub = await scriptedServer([rateLimited("1"), created]);
    const client = new PulsegateClient({ baseUrl: stub.baseUrl, secret: SECRET, retryDelay: { baseDelayMs: 50 } });
    const result = await client.trigger("hook_token", { title: "Backup failed", groupKey: "backup", severity: "sev2" });

    expect(result).toEqual(created.body);
    expect(stub.received).toHaveLength(2);
    const [first, second] = stub.received as [Received, Received];
    expect(second.at - first.at).toBeGreaterThanOrEqual(1000);
    expect(second.at - first.at).toBeLessThan(1000 + 50 + 500);
    expect(second.body.equals(first.body)).toBe(true);
    expect(second.headers["x-webhook-signature"]).toBe(first.headers["x-webhook-signature"]);
    expect(verify(SECRET, first.body, first.headers["x-webhook-signature"])).toBe(true);
    expect(first.url).toBe("/api/alerts/trigger/hook_token");
    expect(first.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(first.body.toString())).toEqual({
      title: "Backup failed",
      severity: "sev2",
      group_key: "backup",
    });
  });

  it("retries 503 without Retry-After with a short jittered backoff", async () => {
    const stub = await scriptedServer([unavailable, unavailable, pinged]);
    const waits: number[] = [];
    const client = new PulsegateClient({
      baseUrl: stub.baseUrl,
      secret: SECRET,
      retryDelay: { baseDelayMs: 40 },
      onRetry: (event) => waits.push(event.delayMs),
    });
    const result = await client.ping("ping_token", { status: "down", reason: "disk full" });
    expect(result.pingStatus).toBe("up");
    expect(stub.received).toHaveLength(3);
    expect(waits).toHaveLength(2);
    expect(waits[0]).toBeLessThan(40);
    expect(waits[1]).toBeLessThan(80);
    const bodies = stub.received.map((request) => request.body.toString());
    expect(new Set(bodies).size).toBe(1);
    expect(JSON.parse(bodies[0] as string)).toEqual({ status: "down", reason: "disk full" });
  });

  it("gives up after the last retry with the last answer's error", async () => {
    const stub = await scriptedServer([rateLimited("0")]);
    const client = new PulsegateClient({
      baseUrl: stub.baseUrl,
      secret: SECRET,
      retries: 2,
      retryDelay: { baseDelayMs: 1 },
    });
    const error = await client.trigger("hook", { title: "x" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PulsegateError);
    expect(error).toMatchObject({
      status: 429,
      code: "rate_limited",
      requestId: "req-429",
      retryAfterMs: 0,
      attempts: 3,
      message: "Too many requests for this webhook",
    });
    expect(stub.received).toHaveLength(3);
  });

  it("does not wait out a Retry-After beyond the cap (a quota until next month)", async () => {
    const stub = await scriptedServer([rateLimited("2592000"), created]);
    const client = new PulsegateClient({ baseUrl: stub.baseUrl, secret: SECRET });
    const error = (await client.trigger("hook", { title: "x" }).catch((caught: unknown) => caught)) as PulsegateError;
    expect(error.status).toBe(429);
    expect(error.retryAfterMs).toBe(2_592_000_000);
    expect(stub.received).toHaveLength(1);
  });

  it("never retries a refusal (4xx other than 429) and reads the error body", async () => {
    const stub = await scriptedServer([
      {
        status: 400,
        headers: { "x-request-id": "req-400" },
        body: {
          error: "The request is invalid; see details.",
          code: "invalid_request",
          requestId: "req-400",
          details: [{ field: "title", message: "must be at most 200 characters" }, { nonsense: true }],
        },
      },
    ]);
    const client = new PulsegateClient({ baseUrl: stub.baseUrl, secret: SECRET });
    const error = (await client.trigger("hook", { title: "x" }).catch((caught: unknown) => caught)) as PulsegateError;
    expect(error).toMatchObject({ status: 400, code: "invalid_request", requestId: "req-400", attempts: 1 });
    expect(error.details).toEqual([{ field: "title", message: "must be at most 200 characters" }]);
    expect(error.unavailable).toBe(false);
    expect(stub.received).toHaveLength(1);
  });

  it("limits each attempt with its own timeout and tries again", async () => {
    const stub = await scriptedServer(["hang", pinged]);
    const client = new PulsegateClient({
      baseUrl: stub.baseUrl,
      secret: SECRET,
      timeoutMs: 200,
      retryDelay: { baseDelayMs: 1 },
    });
    const started = Date.now();
    await expect(client.ping("p")).resolves.toMatchObject({ message: "Ping received" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(stub.received).toHaveLength(2);
  });

  it("reports a timeout, then a dropped connection, as status 0 once retries are spent", async () => {
    const hanging = await scriptedServer(["hang"]);
    const client = new PulsegateClient({ baseUrl: hanging.baseUrl, secret: SECRET, timeoutMs: 100, retries: 0 });
    await expect(client.ping("p")).rejects.toMatchObject({ status: 0, code: "timeout", attempts: 1 });

    const dropping = await scriptedServer(["drop"]);
    const retrying = new PulsegateClient({
      baseUrl: dropping.baseUrl,
      secret: SECRET,
      retries: 2,
      retryDelay: { baseDelayMs: 1 },
    });
    const error = (await retrying.trigger("h", { title: "x" }).catch((caught: unknown) => caught)) as PulsegateError;
    expect(error).toMatchObject({ status: 0, code: "network_error", attempts: 3 });
    expect(error.unavailable).toBe(true);
    expect(dropping.received).toHaveLength(3);
  });

  it("stops waiting between attempts when the caller aborts", async () => {
    const stub = await scriptedServer([rateLimited("30"), created]);
    const controller = new AbortController();
    const waits: number[] = [];
    // Aborted once the client is waiting out the 30 s Retry-After (an event, not a guessed moment).
    const client = new PulsegateClient({
      baseUrl: stub.baseUrl,
      secret: SECRET,
      onRetry: (event) => {
        waits.push(event.delayMs);
        setImmediate(() => controller.abort(new Error("stop")));
      },
    });
    const started = Date.now();
    await expect(client.trigger("h", { title: "x" }, { signal: controller.signal })).rejects.toThrow("stop");
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(30_000);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(stub.received).toHaveLength(1);
  });
});

describe("PulsegateClient requests", () => {
  it("sends an up ping with no body, signed over the empty string, by POST or GET", async () => {
    const stub = await scriptedServer([pinged]);
    const client = new PulsegateClient({ baseUrl: `${stub.baseUrl}/`, secret: SECRET });
    await client.ping("tok");
    await client.ping("tok", {});
    await client.ping("tok", undefined, { method: "GET" });
    expect(stub.received.map((r) => [r.method, r.url, r.body.length, r.headers["content-type"]])).toEqual([
      ["POST", "/api/ping/tok", 0, undefined],
      ["POST", "/api/ping/tok", 0, undefined],
      ["GET", "/api/ping/tok", 0, undefined],
    ]);
    for (const request of stub.received) expect(verify(SECRET, "", request.headers["x-webhook-signature"])).toBe(true);
    await expect(client.ping("tok", { status: "down" }, { method: "GET" })).rejects.toThrow(TypeError);
  });

  it("takes a full URL instead of a token, and needs a secret to sign", async () => {
    const stub = await scriptedServer([created]);
    const client = new PulsegateClient({ secret: SECRET });
    await client.trigger(`${stub.baseUrl}/api/alerts/trigger/abc`, { title: "t", metadata: { env: "prod" } });
    expect(stub.received[0]?.url).toBe("/api/alerts/trigger/abc");
    await expect(client.trigger("abc", { title: "t" })).rejects.toThrow(/base URL/);
    await expect(new PulsegateClient({ baseUrl: stub.baseUrl }).ping("abc")).rejects.toThrow(/secret/);
  });
});

describe("PulsegateAdmin", () => {
  it("sends the bearer token, retries a GET that got no answer, never a POST", async () => {
    const stub = await scriptedServer(["drop", { status: 200, body: { team: { id: "team_1" } } }]);
    const admin = new PulsegateAdmin({ baseUrl: stub.baseUrl, token: "tok", retryDelay: { baseDelayMs: 1 } });
    expect(await admin.getTeam("team_1")).toEqual({ team: { id: "team_1" } });
    expect(stub.received.map((r) => [r.method, r.url, r.headers.authorization])).toEqual([
      ["GET", "/admin/v1/teams/team_1", "Bearer tok"],
      ["GET", "/admin/v1/teams/team_1", "Bearer tok"],
    ]);

    const dropping = await scriptedServer(["drop"]);
    const posting = new PulsegateAdmin({ baseUrl: dropping.baseUrl, token: "tok", retryDelay: { baseDelayMs: 1 } });
    await expect(posting.createTeam({ name: "x" })).rejects.toMatchObject({ status: 0, attempts: 1 });
    expect(dropping.received).toHaveLength(1);
  });

  it("encodes path segments and query parameters", async () => {
    const stub = await scriptedServer([{ status: 200, body: { alerts: [], nextCursor: null } }]);
    const admin = new PulsegateAdmin({ baseUrl: stub.baseUrl, token: "tok" });
    await admin.listAlerts("team/1", { status: "open", limit: 5, cursor: "a b" });
    expect(stub.received[0]?.url).toBe("/admin/v1/teams/team%2F1/alerts?status=open&limit=5&cursor=a+b");
  });
});
