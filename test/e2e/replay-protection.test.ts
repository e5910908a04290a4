// Opt-in timestamped signatures (X-Webhook-Timestamp + HMAC of "<timestamp>.<body>", 300 s),
// inbound per webhook or monitor, and on every outbound webhook notification.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Client, sign } from "../support/client.ts";
import { eventually } from "../support/eventually.ts";
import { Receiver } from "../support/receiver.ts";
import { createChannel } from "./notifications-helpers.ts";

const stack = inject("stack");
const client = new Client(stack);
let receiver: Receiver;
beforeAll(async () => {
  receiver = await Receiver.start();
});
afterAll(() => receiver.close());

const now = () => Math.floor(Date.now() / 1000);

/** A POST to a public path with the timestamp header and the given signature. */
async function post(path: string, body: string, headers: Record<string, string>) {
  const response = await fetch(`${stack.baseUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("replay protection (opt-in)", () => {
  it("a webhook that requires it accepts '<timestamp>.<body>' signatures within 300 s, and nothing else", async () => {
    const { secret, webhookUrl, webhookId } = await client.setup({}, { requireTimestamp: true });
    expect((await client.admin("GET", `/webhooks/${webhookId}`)).body.webhook).toMatchObject({
      requireTimestamp: true,
    });
    const path = `/api/alerts/trigger/${webhookUrl}`;
    const body = JSON.stringify({ title: "Replay-safe", group_key: "replay" });
    const ts = String(now());

    const ok = await post(path, body, {
      "x-webhook-timestamp": ts,
      "x-webhook-signature": sign(secret, `${ts}.${body}`),
    });
    expect([ok.status, ok.body.status]).toEqual([201, "created"]);

    const missing = await post(path, body, { "x-webhook-signature": sign(secret, body) });
    expect([missing.status, missing.body.code]).toEqual([401, "missing_timestamp"]);
    const bodyOnly = await post(path, body, { "x-webhook-timestamp": ts, "x-webhook-signature": sign(secret, body) });
    expect([bodyOnly.status, bodyOnly.body.code]).toEqual([401, "invalid_signature"]);
    const old = String(now() - 301);
    const replayed = await post(path, body, {
      "x-webhook-timestamp": old,
      "x-webhook-signature": sign(secret, `${old}.${body}`),
    });
    expect([replayed.status, replayed.body.code]).toEqual([401, "timestamp_out_of_tolerance"]);
    // Well past the 300 s: the request may reach the server a few seconds after this line.
    const future = String(now() + 360);
    const early = await post(path, body, {
      "x-webhook-timestamp": future,
      "x-webhook-signature": sign(secret, `${future}.${body}`),
    });
    expect(early.body.code).toBe("timestamp_out_of_tolerance");
    const garbage = await post(path, body, {
      "x-webhook-timestamp": "soon",
      "x-webhook-signature": sign(secret, body),
    });
    expect([garbage.status, garbage.body.code]).toEqual([401, "invalid_timestamp"]);
    // Another timestamp than the one signed: the signature no longer matches.
    const shifted = await post(path, body, {
      "x-webhook-timestamp": String(Number(ts) + 1),
      "x-webhook-signature": sign(secret, `${ts}.${body}`),
    });
    expect(shifted.body.code).toBe("invalid_signature");

    const resolveBody = JSON.stringify({ group_key: "replay" });
    const resolved = await post(`/api/alerts/resolve/${webhookUrl}`, resolveBody, {
      "x-webhook-timestamp": ts,
      "x-webhook-signature": sign(secret, `${ts}.${resolveBody}`),
    });
    expect([resolved.status, resolved.body.status]).toEqual([200, "resolved"]);
  });

  it("is off by default: the interface's scheme works, and a timestamp header changes nothing", async () => {
    const { secret, webhookUrl, webhookId } = await client.setup();
    expect((await client.admin("GET", `/webhooks/${webhookId}`)).body.webhook).toMatchObject({
      requireTimestamp: false,
    });
    const body = JSON.stringify({ title: "plain" });
    const response = await post(`/api/alerts/trigger/${webhookUrl}`, body, {
      "x-webhook-timestamp": String(now() - 10_000),
      "x-webhook-signature": sign(secret, body),
    });
    expect(response.status).toBe(201);
  });

  it("can be turned on for an existing webhook", async () => {
    const { secret, webhookUrl, webhookId } = await client.setup();
    await client.admin("PATCH", `/webhooks/${webhookId}`, { requireTimestamp: true });
    const body = JSON.stringify({ title: "x" });
    // The gateway keeps webhook look-ups WEBHOOK_CACHE_MS (200 ms in tests).
    const answer = await eventually(async () => {
      const response = await post(`/api/alerts/trigger/${webhookUrl}`, body, {
        "x-webhook-signature": sign(secret, body),
      });
      return response.status === 401 ? response : undefined;
    });
    expect(answer.body.code).toBe("missing_timestamp");
  });

  it("a monitor that requires it: pings sign '<timestamp>.' with no body", async () => {
    const { secret, pingUrl, monitor } = await client.setupMonitor({}, { requireTimestamp: true });
    expect(monitor).toMatchObject({ requireTimestamp: true });
    const ts = String(now());
    const ok = await fetch(`${stack.baseUrl}/api/ping/${pingUrl}`, {
      headers: { "x-webhook-timestamp": ts, "x-webhook-signature": sign(secret, `${ts}.`) },
    });
    expect(ok.status).toBe(200);
    const plain = await client.ping(pingUrl, undefined, { secret });
    expect([plain.status, plain.body.code]).toEqual([401, "missing_timestamp"]);
  });

  it("webhook notifications carry X-Webhook-Timestamp and a signature of '<timestamp>.<body>'", async () => {
    const { teamId, secret, webhookUrl } = await client.setup();
    await createChannel(client, teamId, { kind: "webhook", url: receiver.url(`/replay/${teamId}`) });
    const created = await client.trigger(webhookUrl, { title: "Signed twice" }, { secret });
    const requests = await receiver.waitFor(
      (all) => all.some((r) => r.path === `/replay/${teamId}`),
      "the notification",
    );
    const request = requests.find((r) => r.path === `/replay/${teamId}`);
    if (!request) throw new Error("no notification");
    expect(request.json).toMatchObject({ alert: { id: created.body.alertId } });
    const ts = request.headers["x-webhook-timestamp"] as string;
    expect(Math.abs(Number(ts) - now())).toBeLessThanOrEqual(60);
    const raw = request.raw.toString();
    expect(request.headers["x-webhook-signature"]).toBe(sign(secret, raw));
    expect(request.headers["x-webhook-timestamp-signature"]).toBe(sign(secret, `${ts}.${raw}`));
  });
});

describe("a timestamped request is applied once", () => {
  const REPLAYED = "replayed_request";

  it("a trigger sent again within its tolerance window is refused (409), in any spelling of its signature", async () => {
    const { secret, webhookUrl, teamId } = await client.setup({}, { requireTimestamp: true });
    const path = `/api/alerts/trigger/${webhookUrl}`;
    const body = JSON.stringify({ title: "Once", group_key: "once" });
    const ts = String(now());
    const signature = sign(secret, `${ts}.${body}`);
    const first = await post(path, body, { "x-webhook-timestamp": ts, "x-webhook-signature": signature });
    expect([first.status, first.body.status, first.body.occurrenceCount]).toEqual([201, "created", 1]);

    for (const spelling of [signature, signature.toUpperCase(), `sha256=${signature}`]) {
      const again = await post(path, body, { "x-webhook-timestamp": ts, "x-webhook-signature": spelling });
      expect([again.status, again.body.code]).toEqual([409, REPLAYED]);
      expect(again.body.error).toMatch(/already accepted/);
    }
    const alerts = await client.admin("GET", `/teams/${teamId}/alerts`);
    expect(alerts.body.alerts).toMatchObject([{ groupKey: "once", occurrenceCount: 1 }]);

    // The same body signed at another second is another request: it folds.
    const later = String(Number(ts) + 1);
    const resent = await post(path, body, {
      "x-webhook-timestamp": later,
      "x-webhook-signature": sign(secret, `${later}.${body}`),
    });
    expect([resent.status, resent.body.status, resent.body.occurrenceCount]).toEqual([201, "occurrence_added", 2]);
  });

  it("a captured trigger replayed after a resolve does not reopen the alert; a captured resolve does not resolve again", async () => {
    const { secret, webhookUrl, teamId } = await client.setup({}, { requireTimestamp: true });
    const trigger = JSON.stringify({ title: "Captured", group_key: "captured" });
    const resolve = JSON.stringify({ group_key: "captured" });
    const ts = String(now());
    const triggerHeaders = { "x-webhook-timestamp": ts, "x-webhook-signature": sign(secret, `${ts}.${trigger}`) };
    const resolveHeaders = { "x-webhook-timestamp": ts, "x-webhook-signature": sign(secret, `${ts}.${resolve}`) };
    const created = await post(`/api/alerts/trigger/${webhookUrl}`, trigger, triggerHeaders);
    expect(created.body.status).toBe("created");
    const resolved = await post(`/api/alerts/resolve/${webhookUrl}`, resolve, resolveHeaders);
    expect(resolved.body.status).toBe("resolved");

    const replayedTrigger = await post(`/api/alerts/trigger/${webhookUrl}`, trigger, triggerHeaders);
    expect([replayedTrigger.status, replayedTrigger.body.code]).toEqual([409, REPLAYED]);
    const alert = (await client.admin("GET", `/alerts/${created.body.alertId}`)).body.alert;
    expect(alert).toMatchObject({ status: "resolved", occurrenceCount: 1 });

    // A new incident of the same key, then the old resolve replayed: refused, the new one stays open.
    const fresh = String(now() + 1);
    const reopened = await post(`/api/alerts/trigger/${webhookUrl}`, trigger, {
      "x-webhook-timestamp": fresh,
      "x-webhook-signature": sign(secret, `${fresh}.${trigger}`),
    });
    expect(reopened.body.status).toBe("reopened");
    const replayedResolve = await post(`/api/alerts/resolve/${webhookUrl}`, resolve, resolveHeaders);
    expect([replayedResolve.status, replayedResolve.body.code]).toEqual([409, REPLAYED]);
    const open = await client.admin("GET", `/teams/${teamId}/alerts?status=open`);
    expect(open.body.alerts).toMatchObject([{ id: created.body.alertId, status: "open" }]);
  });

  it("a down ping replayed is refused and not stored; the refusal does not use the ping window", async () => {
    const { secret, pingUrl, monitorId } = await client.setupMonitor({}, { requireTimestamp: true });
    const body = JSON.stringify({ status: "down", reason: "disk full" });
    const ts = String(now());
    const headers = { "x-webhook-timestamp": ts, "x-webhook-signature": sign(secret, `${ts}.${body}`) };
    const first = await post(`/api/ping/${pingUrl}`, body, headers);
    expect([first.status, first.body.pingStatus]).toEqual([200, "down"]);
    for (let i = 0; i < 12; i++) {
      const again = await post(`/api/ping/${pingUrl}`, body, headers);
      expect([again.status, again.body.code]).toEqual([409, REPLAYED]);
    }
    const pings = await client.admin("GET", `/monitors/${monitorId}/pings`);
    expect(pings.body.pings).toHaveLength(1);
    // Nine more fit in the minute: the refused replays were not counted.
    for (let i = 1; i <= 9; i++) {
      const at = String(Number(ts) + i);
      const up = await fetch(`${stack.baseUrl}/api/ping/${pingUrl}`, {
        headers: { "x-webhook-timestamp": at, "x-webhook-signature": sign(secret, `${at}.`) },
      });
      expect(up.status).toBe(200);
    }
  });

  it("a request refused before it was applied may be sent again as it was", async () => {
    const { secret, webhookUrl } = await client.setup({}, { requireTimestamp: true });
    const body = JSON.stringify({ title: "x", severity: "sev9" });
    const ts = String(now());
    const headers = { "x-webhook-timestamp": ts, "x-webhook-signature": sign(secret, `${ts}.${body}`) };
    for (let i = 0; i < 2; i++) {
      const invalid = await post(`/api/alerts/trigger/${webhookUrl}`, body, headers);
      expect([invalid.status, invalid.body.code]).toEqual([400, "invalid_request"]);
    }
  });
});
