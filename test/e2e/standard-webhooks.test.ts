// Standard Webhooks (docs/integrations.md), with the reference library (`standardwebhooks`) on the
// other side: inbound, webhooks and monitors that take webhook-id, webhook-timestamp and
// webhook-signature under the team's key (whsec_ + base64 of its secret); outbound, webhook
// channels with a whsec_ secret of their own, verified by a receiver.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve as resolvePath } from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { standardWebhooksSnippets } from "../../services/gateway/src/routes/dashboard/snippets.ts";
import { jsonOf, runCli } from "../support/cli.ts";
import { Client, sign, uniqueName } from "../support/client.ts";
import { Receiver } from "../support/receiver.ts";
import { waitForDeliveries } from "./notifications-helpers.ts";

const stack = inject("stack");
const client = new Client(stack);
let receiver: Receiver;
beforeAll(async () => {
  receiver = await Receiver.start();
});
afterAll(() => receiver.close());

type Answer = { status: number; headers: Headers; body: Record<string, unknown> };

/** A team (with its whsec_ key as created) and a source of it with the standard-webhooks scheme. */
async function standardTeam() {
  const created = await client.admin("POST", "/teams", { name: uniqueName("Standard Webhooks") });
  expect(created.status).toBe(201);
  const team = created.body.team as { id: string; secretFingerprint: string };
  return {
    teamId: team.id,
    fingerprint: team.secretFingerprint,
    secret: created.body.webhookSecret as string,
    whsec: created.body.standardWebhooksSecret as string,
  };
}

/** Signs `body` as a Standard Webhooks sender does, and sends it with `headers` (override or drop with null). */
async function send(
  path: string,
  whsec: string,
  body: string,
  options: { id?: string; at?: Date; headers?: Record<string, string | null>; method?: "GET" | "POST" } = {},
): Promise<Answer> {
  const id = options.id ?? `msg_${crypto.randomUUID()}`;
  const at = options.at ?? new Date();
  const headers: Record<string, string | null> = {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(whsec).sign(id, at, body),
    ...(body === "" ? {} : { "content-type": "application/json" }),
    ...options.headers,
  };
  const sent = Object.fromEntries(
    Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== null),
  );
  const method = options.method ?? "POST";
  const response = await fetch(`${stack.baseUrl}${path}`, {
    method,
    headers: sent,
    ...(method === "POST" && body !== "" ? { body } : {}),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : {} };
}

const refused = (answer: Answer) => [answer.status, answer.body.code];
/** A whsec_ key that is not the team's. */
const stranger = `whsec_${Buffer.from("f".repeat(64)).toString("base64")}`;

describe("inbound: a webhook with signatureScheme standard-webhooks", () => {
  it("shows the key once beside the secret, and says how it is formed", async () => {
    const { teamId, secret, whsec, fingerprint } = await standardTeam();
    expect(whsec).toBe(`whsec_${Buffer.from(secret).toString("base64")}`);
    const webhook = await client.createWebhook(teamId, { signatureScheme: "standard-webhooks" });
    const view = (await client.admin("GET", `/webhooks/${webhook.id}`)).body.webhook;
    expect(view).toMatchObject({
      signatureScheme: "standard-webhooks",
      signingSecretFormat: expect.stringContaining("whsec_ + base64 of the team's webhook secret"),
      teamSecretFingerprint: fingerprint,
    });
    const plain = await client.createWebhook(teamId);
    expect((await client.admin("GET", `/webhooks/${plain.id}`)).body.webhook).toMatchObject({
      signatureScheme: "pulsegate",
      signingSecretFormat: null,
      teamSecretFingerprint: null,
    });
    const rotated = await client.admin("POST", `/teams/${teamId}/webhook-secret/rotate`, {});
    expect(rotated.body.standardWebhooksSecret).toBe(
      `whsec_${Buffer.from(rotated.body.webhookSecret as string).toString("base64")}`,
    );
    const list = await client.admin("GET", `/teams/${teamId}/webhooks`);
    const listed = (list.body.webhooks as { id: string; teamSecretFingerprint: string | null }[]).find(
      (item) => item.id === webhook.id,
    );
    expect(listed?.teamSecretFingerprint).toBe((rotated.body.team as { secretFingerprint: string }).secretFingerprint);
    // Within the grace window the previous secret's key still verifies, as the hex one does.
    const body = JSON.stringify({ title: "Signed before the rotation reached the sender" });
    expect((await send(`/api/alerts/trigger/${webhook.webhookUrl}`, whsec, body)).status).toBe(201);
    const fresh = rotated.body.standardWebhooksSecret as string;
    expect((await send(`/api/alerts/trigger/${webhook.webhookUrl}`, fresh, body)).status).toBe(201);
  });

  it("takes a valid request, one valid signature among several, and refuses the rest with named 401s", async () => {
    const { teamId, secret, whsec } = await standardTeam();
    const { webhookUrl } = await client.createWebhook(teamId, { signatureScheme: "standard-webhooks" });
    const path = `/api/alerts/trigger/${webhookUrl}`;
    const body = JSON.stringify({ title: "Queue depth above 1000", severity: "sev2" });

    const ok = await send(path, whsec, body);
    expect([ok.status, ok.body.status]).toEqual([201, "created"]);

    const at = new Date();
    const id = "msg_several";
    const valid = new Webhook(whsec).sign(id, at, body);
    const wrong = new Webhook(stranger).sign(id, at, body);
    const several = await send(path, whsec, body, {
      id,
      at,
      headers: { "webhook-signature": `${wrong} v1a,abc ${valid}` },
    });
    expect(several.status).toBe(201);

    expect(refused(await send(path, stranger, body))).toEqual([401, "invalid_signature"]);
    expect(refused(await send(path, whsec, body, { headers: { "webhook-signature": `${wrong} v2,abc` } }))).toEqual([
      401,
      "invalid_signature",
    ]);
    const tampered = await fetch(`${stack.baseUrl}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "webhook-id": id,
        "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
        "webhook-signature": valid,
      },
      body: `${body} `,
    });
    expect(tampered.status).toBe(401);

    const noId = await send(path, whsec, body, { headers: { "webhook-id": null } });
    expect(refused(noId)).toEqual([401, "missing_webhook_id"]);
    expect(noId.body.error).toMatch(/^Missing webhook-id/);
    expect(refused(await send(path, whsec, body, { headers: { "webhook-timestamp": null } }))).toEqual([
      401,
      "missing_timestamp",
    ]);
    expect(refused(await send(path, whsec, body, { headers: { "webhook-timestamp": "soon" } }))).toEqual([
      401,
      "invalid_timestamp",
    ]);
    // Step 1 is the interface's: no signature header at all is its exact 401.
    const none = await send(path, whsec, body, { headers: { "webhook-signature": null } });
    expect([none.status, none.body.error]).toEqual([401, "Missing webhook signature"]);
    // The interface's header alone is not read here: the 401 says which headers are.
    const hex = await send(path, whsec, body, {
      headers: { "webhook-signature": null, "x-webhook-signature": sign(secret, body) },
    });
    expect(refused(hex)).toEqual([401, "missing_signature"]);
    expect(hex.body.error).toMatch(/Standard Webhooks/);

    // Five minutes either way, checked before the signature (the library signs the old time faithfully).
    const old = await send(path, whsec, body, { at: new Date(Date.now() - 360_000) });
    expect(refused(old)).toEqual([401, "timestamp_out_of_tolerance"]);
    expect(old.body.error).toMatch(/^webhook-timestamp is more than 300 s/);
    expect(refused(await send(path, whsec, body, { at: new Date(Date.now() + 420_000) }))).toEqual([
      401,
      "timestamp_out_of_tolerance",
    ]);

    const alerts = await client.admin("GET", `/teams/${teamId}/alerts`);
    expect(alerts.body.alerts).toHaveLength(2);
  });

  it("applies a webhook-id once: a retry, even signed again later, gets the first answer (Idempotent-Replayed)", async () => {
    const { teamId, whsec } = await standardTeam();
    const { webhookUrl } = await client.createWebhook(teamId, { signatureScheme: "standard-webhooks" });
    const path = `/api/alerts/trigger/${webhookUrl}`;
    const body = JSON.stringify({ title: "Once", group_key: "once" });
    const id = "msg_retried";
    const first = await send(path, whsec, body, { id });
    expect([first.status, first.body.status, first.headers.get("idempotent-replayed")]).toEqual([201, "created", null]);
    const again = await send(path, whsec, body, { id });
    const resigned = await send(path, whsec, body, { id, at: new Date(Date.now() + 2_000) });
    for (const retry of [again, resigned]) {
      expect([retry.status, retry.body.alertId, retry.body.occurrenceCount]).toEqual([201, first.body.alertId, 1]);
      expect(retry.headers.get("idempotent-replayed")).toBe("true");
    }
    const alerts = await client.admin("GET", `/teams/${teamId}/alerts`);
    expect(alerts.body.alerts).toMatchObject([{ id: first.body.alertId, occurrenceCount: 1 }]);
    // The same id for another body is another message under a reused id: nothing is applied.
    const reused = await send(path, whsec, JSON.stringify({ title: "Other" }), { id });
    expect(refused(reused)).toEqual([422, "idempotency_key_reused"]);
    const mismatched = await send(path, whsec, body, { id, headers: { "idempotency-key": "something-else" } });
    expect(refused(mismatched)).toEqual([400, "invalid_request"]);

    // Resolves are signed and de-duplicated the same way.
    const resolve = JSON.stringify({ group_key: "once" });
    const resolved = await send(`/api/alerts/resolve/${webhookUrl}`, whsec, resolve, { id: "msg_resolve" });
    expect([resolved.status, resolved.body.status]).toEqual([200, "resolved"]);
    const resolvedAgain = await send(`/api/alerts/resolve/${webhookUrl}`, whsec, resolve, { id: "msg_resolve" });
    expect([resolvedAgain.body.status, resolvedAgain.headers.get("idempotent-replayed")]).toEqual(["resolved", "true"]);
    expect(refused(await send(`/api/alerts/resolve/${webhookUrl}`, stranger, resolve))).toEqual([
      401,
      "invalid_signature",
    ]);
  });

  it("can be switched on for an existing webhook, and off again", async () => {
    const { teamId, secret, whsec } = await standardTeam();
    const { id, webhookUrl } = await client.createWebhook(teamId);
    const body = JSON.stringify({ title: "Switched" });
    const patched = await client.admin("PATCH", `/webhooks/${id}`, { signatureScheme: "standard-webhooks" });
    expect(patched.body.webhook).toMatchObject({ signatureScheme: "standard-webhooks" });
    // The gateway keeps webhook look-ups WEBHOOK_CACHE_MS (200 ms in tests).
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await client.trigger(webhookUrl, body, { secret })).body.code).toBe("missing_signature");
    expect((await send(`/api/alerts/trigger/${webhookUrl}`, whsec, body)).status).toBe(201);
    expect((await client.admin("PATCH", `/webhooks/${id}`, { signatureScheme: "nope" })).status).toBe(400);
  });

  it("the dashboard's Node snippet, run as pasted, is taken", async () => {
    const { teamId, whsec } = await standardTeam();
    const { id } = await client.createWebhook(teamId, { signatureScheme: "standard-webhooks" });
    const triggerUrl = (await client.admin("GET", `/webhooks/${id}`)).body.webhook as { triggerUrl: string };
    // Under node_modules, so `import "standardwebhooks"` resolves to the root devDependency.
    const dir = mkdtempSync(resolvePath(import.meta.dirname, "../../node_modules/.standard-webhooks-snippet-"));
    try {
      writeFileSync(join(dir, "send.mjs"), standardWebhooksSnippets(triggerUrl.triggerUrl, { title: "Pasted" }).node);
      const output = execFileSync(process.execPath, [join(dir, "send.mjs")], {
        env: { PATH: process.env.PATH ?? "", PULSEGATE_WHSEC: whsec },
        encoding: "utf8",
      });
      expect(output).toMatch(/^201 /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("inbound: a monitor with signatureScheme standard-webhooks", () => {
  it("takes signed pings, refuses bad ones, and records a repeated webhook-id once", async () => {
    const { teamId, whsec, fingerprint } = await standardTeam();
    const monitor = await client.createMonitor(teamId, { signatureScheme: "standard-webhooks" });
    expect(monitor).toMatchObject({ signatureScheme: "standard-webhooks", teamSecretFingerprint: fingerprint });
    const path = `/api/ping/${monitor.pingUrl}`;

    const up = await send(path, whsec, "", { method: "GET" });
    expect([up.status, up.body.pingStatus]).toEqual([200, "up"]);
    const down = JSON.stringify({ status: "down", reason: "disk full" });
    const at = new Date();
    const id = "msg_ping_down";
    const valid = new Webhook(whsec).sign(id, at, down);
    const wrong = new Webhook(stranger).sign(id, at, down);
    const first = await send(path, whsec, down, { id, at, headers: { "webhook-signature": `${wrong} ${valid}` } });
    expect([first.status, first.body.pingStatus, first.headers.get("idempotent-replayed")]).toEqual([
      200,
      "down",
      null,
    ]);
    const retry = await send(path, whsec, down, { id, at: new Date(Date.now() + 1_000) });
    expect([retry.status, retry.body.pingStatus, retry.headers.get("idempotent-replayed")]).toEqual([
      200,
      "down",
      "true",
    ]);

    expect(refused(await send(path, stranger, ""))).toEqual([401, "invalid_signature"]);
    expect(refused(await send(path, whsec, "", { headers: { "webhook-id": null } }))).toEqual([
      401,
      "missing_webhook_id",
    ]);
    expect(refused(await send(path, whsec, "", { headers: { "webhook-timestamp": null } }))).toEqual([
      401,
      "missing_timestamp",
    ]);
    expect(refused(await send(path, whsec, "", { at: new Date(Date.now() - 400_000) }))).toEqual([
      401,
      "timestamp_out_of_tolerance",
    ]);

    const pings = await client.admin("GET", `/monitors/${monitor.id}/pings`);
    expect((pings.body.pings as { status: string }[]).map((ping) => ping.status)).toEqual(["down", "up"]);
  });
});

describe("outbound: a webhook channel with signatureScheme standard-webhooks", () => {
  it("gets a whsec_ secret once, and its deliveries verify with the library; webhook-id is the delivery id on every attempt", async () => {
    const { teamId, secret } = await standardTeam();
    const path = `/standard/${teamId}`;
    let failFirst = true;
    receiver.behaviour = (request) => {
      if (request.path === path && failFirst) {
        failFirst = false;
        return 503;
      }
      return 200;
    };
    const created = await client.admin("POST", `/teams/${teamId}/channels`, {
      kind: "webhook",
      name: "Standard receiver",
      url: receiver.url(path),
      signatureScheme: "standard-webhooks",
    });
    expect(created.status).toBe(201);
    const signingSecret = created.body.signingSecret as string;
    expect(signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.body.channel).toMatchObject({
      signatureScheme: "standard-webhooks",
      previousSigningSecretValidUntil: null,
    });
    // Never shown again.
    const listed = await client.admin("GET", `/teams/${teamId}/channels`);
    expect(JSON.stringify(listed.body)).not.toContain(signingSecret.slice(6));

    const { webhookUrl } = await client.createWebhook(teamId);
    const trigger = await client.trigger(webhookUrl, { title: "Deliver me, signed" }, { secret });
    const alertId = trigger.body.alertId as string;
    const attempts = await receiver.waitFor(
      (all) => all.filter((request) => request.path === path).length >= 2,
      "a failed attempt and its retry",
    );
    const mine = attempts.filter((request) => request.path === path);
    const [delivery] = await waitForDeliveries(client, alertId, (list) => list[0]?.status === "delivered", "delivered");
    for (const attempt of mine) {
      const headers = attempt.headers as Record<string, string>;
      expect(headers["webhook-id"]).toBe(delivery?.id);
      expect(headers["x-pulsegate-delivery"]).toBe(delivery?.id);
      expect(headers["x-webhook-signature"]).toBeUndefined();
      expect(new Webhook(signingSecret).verify(attempt.raw.toString("utf8"), headers)).toMatchObject({
        type: "alert.created",
        alert: { id: alertId },
      });
      expect(() => new Webhook(stranger).verify(attempt.raw.toString("utf8"), headers)).toThrow();
    }
  });

  it("rotates its secret (audited): during the grace both secrets sign, so the receiver can switch", async () => {
    const { teamId, secret } = await standardTeam();
    const path = `/standard-rotated/${teamId}`;
    const created = await client.admin("POST", `/teams/${teamId}/channels`, {
      kind: "webhook",
      name: "Rotating receiver",
      url: receiver.url(path),
      signatureScheme: "standard-webhooks",
    });
    const channel = created.body.channel as { id: string };
    const old = created.body.signingSecret as string;
    const rotated = await client.admin("POST", `/channels/${channel.id}/signing-secret/rotate`, { graceSeconds: 600 });
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.signingSecret as string;
    expect(fresh).not.toBe(old);
    expect(rotated.body.channel).toMatchObject({ previousSigningSecretValidUntil: rotated.body.previousValidUntil });

    const { webhookUrl } = await client.createWebhook(teamId);
    await client.trigger(webhookUrl, { title: "Signed twice over" }, { secret });
    const [request] = (await receiver.waitFor((all) => all.some((r) => r.path === path), "the delivery")).filter(
      (r) => r.path === path,
    );
    const headers = request?.headers as Record<string, string>;
    expect(headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    for (const key of [fresh, old])
      expect(new Webhook(key).verify(request?.raw.toString("utf8") ?? "", headers)).toBeTruthy();

    const audit = await client.admin("GET", `/teams/${teamId}/audit-log`);
    expect(audit.body.entries).toContainEqual(
      expect.objectContaining({
        action: "channel.rotate_signing_secret",
        target: { kind: "channel", id: channel.id },
        details: { graceSeconds: 600 },
      }),
    );
    expect(JSON.stringify(audit.body)).not.toContain(fresh.slice(6));
  });

  it("refuses the scheme on other kinds, and a rotation for a channel without a secret of its own", async () => {
    const { teamId } = await standardTeam();
    const slack = await client.admin("POST", `/teams/${teamId}/channels`, {
      kind: "slack",
      name: "#ops",
      url: receiver.url("/slack"),
      signatureScheme: "standard-webhooks",
    });
    expect(refused(slack)).toEqual([400, "invalid_request"]);
    expect(slack.body.details).toEqual([
      { field: "signatureScheme", message: expect.stringContaining("webhook channels only") },
    ]);
    const plain = await client.admin("POST", `/teams/${teamId}/channels`, {
      kind: "webhook",
      name: "Plain",
      url: receiver.url("/plain"),
    });
    expect(plain.body.signingSecret).toBeUndefined();
    expect(plain.body.channel).toMatchObject({ signatureScheme: "pulsegate" });
    const channel = plain.body.channel as { id: string };
    expect(refused(await client.admin("POST", `/channels/${channel.id}/signing-secret/rotate`, {}))).toEqual([
      409,
      "no_signing_secret",
    ]);
  });
});

describe("the CLI", () => {
  it("creates a standard-webhooks channel (its secret printed once) and rotates the secret", async () => {
    const { teamId } = await standardTeam();
    const operator = { PULSEGATE_URL: stack.baseUrl, PULSEGATE_TOKEN: stack.adminToken };
    const created = await runCli(
      [
        "channels",
        "create",
        teamId,
        "--kind",
        "webhook",
        "--name",
        "CLI receiver",
        "--destination",
        receiver.url("/cli"),
      ].concat(["--signature-scheme", "standard-webhooks"]),
      { env: operator },
    );
    expect(created.code).toBe(0);
    const printed = /signing secret \(shown once, store it now\): (whsec_\S+)/.exec(created.stdout)?.[1];
    expect(printed).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const channelId = /^id:\s+(ch_\w+)$/m.exec(created.stdout)?.[1] as string;
    const rotated = await runCli(["channels", "rotate-signing-secret", channelId, "--grace-seconds", "0", "--json"], {
      env: operator,
    });
    expect(rotated.code).toBe(0);
    const answer = jsonOf<{ signingSecret: string; previousValidUntil: string | null }>(rotated);
    expect(answer.signingSecret).not.toBe(printed);
    expect(answer.previousValidUntil).toBeNull();
  });
});
