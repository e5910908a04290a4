// Prometheus Alertmanager pages through Pulsegate (docs/integrations.md, "Alertmanager"): Debian's real
// Alertmanager, configured as the docs say, sends its webhook payloads to an Alertmanager webhook's
// triggerUrl with the webhook's bearer token; each alert becomes one Pulsegate alert, and a resolved
// one resolves it.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Alertmanager, alertmanagerConfig, type GettableAlert } from "../support/alertmanager.ts";
import { Client, type JsonResponse } from "../support/client.ts";
import { eventually } from "../support/eventually.ts";

const stack = inject("stack");
const client = new Client(stack);

type AlertJson = {
  id: string;
  status: string;
  groupKey: string;
  title: string;
  description: string;
  severity: string;
  source: string;
  sourceId: string;
  metadata: Record<string, unknown>;
  occurrenceCount: number;
};

type CreatedWebhook = {
  webhook: { id: string; webhookUrl: string; triggerUrl: string; source: string };
  bearerToken: string;
};

async function createAlertmanagerWebhook(teamId: string, body: Record<string, unknown> = {}): Promise<CreatedWebhook> {
  const response = await client.admin("POST", `/teams/${teamId}/webhooks`, {
    name: "Alertmanager",
    source: "alertmanager",
    ...body,
  });
  if (response.status !== 201) throw new Error(`create webhook: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as CreatedWebhook;
}

/** A POST to an Alertmanager webhook's triggerUrl, as Alertmanager sends it (null: no Authorization). */
async function postPayload(triggerUrl: string, token: string | null, body: unknown): Promise<JsonResponse> {
  const response = await fetch(triggerUrl, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

const payload = (alerts: unknown[]) => ({
  version: "4",
  status: "firing",
  receiver: "pulsegate",
  groupKey: "{}:{}",
  truncatedAlerts: 0,
  groupLabels: {},
  commonLabels: {},
  commonAnnotations: {},
  externalURL: "http://alertmanager.example",
  alerts,
});

const teamAlerts = async (teamId: string): Promise<AlertJson[]> =>
  (await client.admin("GET", `/teams/${teamId}/alerts`)).body.alerts as AlertJson[];

describe("Alertmanager webhooks, with Debian's Alertmanager", () => {
  let alertmanager: Alertmanager | undefined;
  let teamId: string;
  let created: CreatedWebhook;

  beforeAll(async () => {
    ({ teamId } = await client.createTeam());
    created = await createAlertmanagerWebhook(teamId);
    alertmanager = await Alertmanager.start(alertmanagerConfig(created.webhook.triggerUrl, created.bearerToken));
  });
  afterAll(async () => {
    await alertmanager?.stop();
  });

  it("is created with a bearer token, shown once, and a triggerUrl for webhook_configs", async () => {
    expect(created.bearerToken).toMatch(/^pgam_[A-Za-z0-9_-]{43}$/);
    expect(created.webhook.source).toBe("alertmanager");
    expect(created.webhook.triggerUrl).toBe(`${stack.baseUrl}/api/alerts/alertmanager/${created.webhook.webhookUrl}`);
    const read = await client.admin("GET", `/webhooks/${created.webhook.id}`);
    expect(read.body.webhook).toMatchObject({ source: "alertmanager", triggerUrl: created.webhook.triggerUrl });
    expect(JSON.stringify(read.body)).not.toContain(created.bearerToken);
  });

  it("turns each alert into a Pulsegate alert, and resolves the one Alertmanager resolves", async ({
    onTestFailed,
  }) => {
    const am = alertmanager as Alertmanager;
    // What Alertmanager logged (a refused notification, say) explains a failure here.
    onTestFailed(() => console.error(`Alertmanager said:\n${am.output()}`));
    const startsAt = new Date(Date.now() - 60_000).toISOString();
    const disk = {
      labels: { alertname: "DiskFull", severity: "critical", instance: "db-1:9100", env: "production" },
      annotations: { summary: "Disk of db-1 is 98% full", description: "/var/lib/postgresql on db-1: 2 GiB left" },
      generatorURL: "http://prometheus.example/graph?g0.expr=disk_free",
      startsAt,
    };
    const load = {
      labels: { alertname: "DiskFull", severity: "warning", instance: "db-2:9100", env: "production" },
      generatorURL: "http://prometheus.example/graph?g0.expr=disk_free",
      startsAt,
    };
    await am.post([disk, load]);
    const fingerprints = await eventually(
      async () => {
        const held = await am.alerts();
        return held.length === 2 ? held : undefined;
      },
      { what: "both alerts in Alertmanager" },
    );
    const fingerprintOf = (instance: string) =>
      (fingerprints.find((alert) => alert.labels.instance === instance) as GettableAlert).fingerprint;

    const paged = await eventually(
      async () => {
        const alerts = await teamAlerts(teamId);
        return alerts.length === 2 ? alerts : undefined;
      },
      { what: "two Pulsegate alerts" },
    );
    const byKey = new Map(paged.map((alert) => [alert.groupKey, alert]));
    expect(byKey.get(fingerprintOf("db-1:9100"))).toMatchObject({
      status: "open",
      title: "Disk of db-1 is 98% full",
      description: "/var/lib/postgresql on db-1: 2 GiB left",
      severity: "sev1",
      source: "webhook",
      sourceId: created.webhook.id,
      metadata: {
        labels: disk.labels,
        annotations: disk.annotations,
        generatorURL: disk.generatorURL,
      },
    });
    // No summary: the alertname is the title; warning is sev3.
    expect(byKey.get(fingerprintOf("db-2:9100"))).toMatchObject({
      status: "open",
      title: "DiskFull",
      description: "",
      severity: "sev3",
      metadata: { labels: load.labels, annotations: {}, generatorURL: load.generatorURL },
    });

    // Prometheus resolves an alert by sending it again with an end in the past.
    await am.post([{ ...disk, endsAt: new Date(Date.now() - 1_000).toISOString() }]);
    const after = await eventually(
      async () => {
        const alerts = await teamAlerts(teamId);
        return alerts.find((alert) => alert.groupKey === fingerprintOf("db-1:9100"))?.status === "resolved"
          ? alerts
          : undefined;
      },
      { what: "the resolved alert resolved in Pulsegate" },
    );
    expect(after).toHaveLength(2);
    expect(after.find((alert) => alert.groupKey === fingerprintOf("db-2:9100"))?.status).toBe("open");
  });

  it("answers a missing or wrong bearer token 401 with a code and a sentence, and changes nothing", async () => {
    const body = payload([
      { status: "firing", labels: { alertname: "Nope" }, annotations: {}, fingerprint: "0000000000000001" },
    ]);
    const missing = await postPayload(created.webhook.triggerUrl, null, body);
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({
      code: "missing_bearer_token",
      error: "Missing bearer token: send Authorization: Bearer <the webhook's bearerToken>.",
    });
    const wrongToken = `${created.bearerToken.slice(0, -1)}${created.bearerToken.endsWith("A") ? "B" : "A"}`;
    const wrong = await postPayload(created.webhook.triggerUrl, wrongToken, body);
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({
      code: "invalid_bearer_token",
      error: "The bearer token is not this webhook's.",
    });
    // Another webhook's token is no better.
    const other = await createAlertmanagerWebhook(teamId, { name: "Other" });
    expect((await postPayload(created.webhook.triggerUrl, other.bearerToken, body)).status).toBe(401);
    expect((await teamAlerts(teamId)).some((alert) => alert.groupKey === "0000000000000001")).toBe(false);
  });
});

describe("Alertmanager webhooks, sent to directly", () => {
  it("lists each alert's outcome, and refuses a payload that is not Alertmanager's with 400s naming fields", async () => {
    const { teamId } = await client.createTeam();
    const { webhook, bearerToken } = await createAlertmanagerWebhook(teamId, {
      filterRules: [{ field: "metadata.labels.env", op: "==", value: "production" }],
    });
    const alert = (fingerprint: string, env: string, status = "firing") => ({
      status,
      labels: { alertname: "QueueStuck", env },
      annotations: { summary: `Queue stuck in ${env}` },
      fingerprint,
    });
    const first = await postPayload(
      webhook.triggerUrl,
      bearerToken,
      payload([
        alert("00000000000000a1", "production"),
        alert("00000000000000a2", "staging"),
        alert("00000000000000a3", "production", "resolved"),
      ]),
    );
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      message: "Alertmanager payload received",
      alerts: [
        { fingerprint: "00000000000000a1", status: "created", alertId: expect.any(String), occurrenceCount: 1 },
        { fingerprint: "00000000000000a2", status: "filtered", reason: 'metadata.labels.env == "production"' },
        { fingerprint: "00000000000000a3", status: "no_alert" },
      ],
    });
    const again = await postPayload(
      webhook.triggerUrl,
      bearerToken,
      payload([alert("00000000000000a1", "production")]),
    );
    expect(again.body.alerts).toEqual([
      { fingerprint: "00000000000000a1", status: "occurrence_added", alertId: expect.any(String), occurrenceCount: 2 },
    ]);

    const wrongVersion = await postPayload(webhook.triggerUrl, bearerToken, { ...payload([]), version: "3" });
    expect(wrongVersion.status).toBe(400);
    expect(wrongVersion.body).toMatchObject({ code: "invalid_request", details: [{ field: "version" }] });
    const tooMany = await postPayload(
      webhook.triggerUrl,
      bearerToken,
      payload(Array.from({ length: 501 }, (_, index) => alert(`f${index}`, "production"))),
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.details).toEqual([
      {
        field: "alerts",
        message:
          "alerts must hold at most 500 alerts (this one holds 501): set max_alerts: 500 in Alertmanager's webhook_configs.",
      },
    ]);
    const notJson = await postPayload(webhook.triggerUrl, bearerToken, "{");
    expect(notJson.status).toBe(400);
    expect(notJson.body.code).toBe("invalid_json");
  });

  it("keeps signed and Alertmanager webhooks on their own routes (404 on the other's)", async () => {
    const { teamId, secret, webhookUrl } = await client.setup();
    const { webhook, bearerToken } = await createAlertmanagerWebhook(teamId);
    const signedOnAlertmanager = await postPayload(
      `${stack.baseUrl}/api/alerts/alertmanager/${webhookUrl}`,
      bearerToken,
      payload([]),
    );
    expect(signedOnAlertmanager.status).toBe(404);
    expect(signedOnAlertmanager.body.code).toBe("webhook_not_found");
    const alertmanagerOnSigned = await client.trigger(webhook.webhookUrl, { title: "x" }, { secret });
    expect(alertmanagerOnSigned.status).toBe(404);
    expect(alertmanagerOnSigned.body.code).toBe("webhook_not_found");
  });

  it("checks the webhook, the subscription and the rate limit in the trigger's order", async () => {
    const expired = await client.createTeam({ subscriptionExpiresAt: "2020-01-01T00:00:00Z" });
    const lapsed = await createAlertmanagerWebhook(expired.teamId);
    const refused = await postPayload(lapsed.webhook.triggerUrl, lapsed.bearerToken, payload([]));
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("subscription_expired");
    // Before the subscription: a wrong token is 401 even for an expired team.
    expect((await postPayload(lapsed.webhook.triggerUrl, "pgam_wrong", payload([]))).status).toBe(401);

    const { teamId } = await client.createTeam();
    const { webhook, bearerToken } = await createAlertmanagerWebhook(teamId, { rateLimitPerMinute: 1 });
    expect((await postPayload(webhook.triggerUrl, bearerToken, payload([]))).status).toBe(200);
    const limited = await postPayload(webhook.triggerUrl, bearerToken, payload([]));
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe("rate_limited");
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);

    // A disabled webhook is unknown at once (nothing cached), whatever the token.
    expect((await client.admin("PATCH", `/webhooks/${webhook.id}`, { enabled: false })).status).toBe(200);
    const disabled = await postPayload(webhook.triggerUrl, bearerToken, payload([]));
    expect(disabled.status).toBe(404);
    expect(disabled.body.code).toBe("webhook_not_found");
  });

  it("rotates the bearer token: the new one works at once, the old one until the grace ends (0: at once)", async () => {
    const { teamId } = await client.createTeam();
    const { webhook, bearerToken: first } = await createAlertmanagerWebhook(teamId);
    const rotate = (graceSeconds: number) =>
      client.admin("POST", `/webhooks/${webhook.id}/bearer-token/rotate`, { graceSeconds });
    const works = async (token: string) => (await postPayload(webhook.triggerUrl, token, payload([]))).status;

    const kept = await rotate(3_600);
    expect(kept.status).toBe(200);
    const second = kept.body.bearerToken as string;
    expect(second).toMatch(/^pgam_[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(kept.body.previousValidUntil as string) - Date.now()).toBeGreaterThan(3_500_000);
    expect(kept.body.webhook).toMatchObject({
      id: webhook.id,
      previousBearerTokenValidUntil: kept.body.previousValidUntil,
    });
    expect([await works(first), await works(second)]).toEqual([200, 200]);

    const dropped = await rotate(0);
    expect(dropped.body.previousValidUntil).toBeNull();
    const third = dropped.body.bearerToken as string;
    // A grace of 0 ends the token it replaces, and the one replaced before was dropped at once.
    expect([await works(first), await works(second), await works(third)]).toEqual([401, 401, 200]);

    // Audit entries are recorded once the answer is sent.
    const audit = await eventually(
      async () => {
        const page = await client.admin("GET", `/teams/${teamId}/audit-log`);
        const rotations = (page.body.entries as { action: string; details: unknown }[]).filter(
          (entry) => entry.action === "webhook.rotate_bearer_token",
        );
        return rotations.length === 2 ? { page, rotations } : undefined;
      },
      { what: "two rotations in the audit log" },
    );
    expect(audit.rotations.map((entry) => entry.details)).toEqual([{ graceSeconds: 0 }, { graceSeconds: 3_600 }]);
    expect(JSON.stringify(audit.page.body)).not.toContain(third);

    // A signed webhook has no bearer token.
    const signed = await client.createWebhook(teamId);
    const refused = await client.admin("POST", `/webhooks/${signed.id}/bearer-token/rotate`, {});
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("conflict");
  });

  it("refuses requireTimestamp for an Alertmanager webhook, at creation and after", async () => {
    const { teamId } = await client.createTeam();
    const createdWith = await client.admin("POST", `/teams/${teamId}/webhooks`, {
      name: "AM",
      source: "alertmanager",
      requireTimestamp: true,
    });
    expect(createdWith.status).toBe(400);
    expect(createdWith.body.details).toMatchObject([{ field: "requireTimestamp" }]);
    const { webhook } = await createAlertmanagerWebhook(teamId);
    const changed = await client.admin("PATCH", `/webhooks/${webhook.id}`, { requireTimestamp: true });
    expect(changed.status).toBe(400);
    const unknownSource = await client.admin("POST", `/teams/${teamId}/webhooks`, { name: "X", source: "grafana" });
    expect(unknownSource.status).toBe(400);
  });

  it("refuses a signature scheme for an Alertmanager webhook, which shows none and is not reached by a signed request", async () => {
    const { teamId } = await client.createTeam();
    for (const signatureScheme of ["standard-webhooks", "pulsegate"]) {
      const createdWith = await client.admin("POST", `/teams/${teamId}/webhooks`, {
        name: "AM",
        source: "alertmanager",
        signatureScheme,
      });
      expect(createdWith.status).toBe(400);
      expect(createdWith.body.details).toMatchObject([{ field: "signatureScheme" }]);
    }
    const { webhook } = await createAlertmanagerWebhook(teamId);
    const changed = await client.admin("PATCH", `/webhooks/${webhook.id}`, { signatureScheme: "standard-webhooks" });
    expect(changed.status).toBe(400);
    expect(changed.body.details).toMatchObject([{ field: "signatureScheme" }]);

    const shown = await client.admin("GET", `/webhooks/${webhook.id}`);
    expect(shown.body.webhook).toMatchObject({
      source: "alertmanager",
      signatureScheme: null,
      signingSecretFormat: null,
      teamSecretFingerprint: null,
    });
    // A Standard Webhooks request to its URL on the trigger route finds no webhook there.
    const signed = await fetch(`${stack.baseUrl}/api/alerts/trigger/${webhook.webhookUrl}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "webhook-id": "msg_1",
        "webhook-timestamp": String(Math.floor(Date.now() / 1_000)),
        "webhook-signature": "v1,c2lnbmF0dXJl",
      },
      body: JSON.stringify({ title: "t" }),
    });
    expect(signed.status).toBe(404);

    // A standard-webhooks webhook is a signed one.
    const standard = await client.admin("POST", `/teams/${teamId}/webhooks`, {
      name: "SW",
      signatureScheme: "standard-webhooks",
    });
    expect(standard.status).toBe(201);
    expect(standard.body.webhook).toMatchObject({ source: "signed", signatureScheme: "standard-webhooks" });
    expect(standard.body).not.toHaveProperty("bearerToken");
  });
});
