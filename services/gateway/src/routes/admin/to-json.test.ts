import { alerts, auth } from "@pulsegate/proto";
import { describe, expect, it } from "vitest";
import { alertJson, filterRuleJson, filterRuleToProto, teamJson, webhookJson } from "./to-json.ts";

describe("teamJson", () => {
  it("shows fingerprints and dates, null for what is unset", () => {
    const team = auth.Team.fromPartial({
      id: "t1",
      name: "Ops",
      secretFingerprint: "ab".repeat(32),
      createdAt: new Date("2025-01-01T00:00:00Z"),
      alertQuotaMonthly: 100,
    });
    expect(teamJson(team)).toEqual({
      id: "t1",
      name: "Ops",
      subscriptionExpiresAt: null,
      alertQuotaMonthly: 100,
      heartbeatQuotaMonthly: 0,
      createdAt: "2025-01-01T00:00:00.000Z",
      secretFingerprint: "ab".repeat(32),
      secretRotatedAt: null,
      currentSecretLastUsedAt: null,
      previousSecretFingerprint: null,
      previousSecretValidUntil: null,
      previousSecretLastUsedAt: null,
    });
  });
});

describe("filter rules", () => {
  it("carry any JSON value as JSON text, and none for exists", () => {
    const rule = { field: "metadata.env", op: "in", value: ["prod", 1, null] };
    expect(filterRuleToProto(rule)).toEqual({ field: "metadata.env", op: "in", valueJson: '["prod",1,null]' });
    expect(filterRuleJson(filterRuleToProto(rule))).toEqual(rule);
    expect(filterRuleToProto({ field: "title", op: "exists" }).valueJson).toBe("");
    expect(filterRuleJson({ field: "title", op: "exists", valueJson: "" })).toEqual({ field: "title", op: "exists" });
  });
});

describe("webhookJson", () => {
  it("adds the absolute trigger URL and the JSON severity", () => {
    const webhook = alerts.Webhook.fromPartial({
      id: "w1",
      teamId: "t1",
      webhookUrl: "tok_123",
      name: "CI",
      defaultSeverity: alerts.Severity.SEVERITY_SEV3,
      enabled: true,
      rateLimitPerMinute: 60,
    });
    const json = webhookJson(webhook, "https://pg.example");
    expect(json.triggerUrl).toBe("https://pg.example/api/alerts/trigger/tok_123");
    expect(json.defaultSeverity).toBe("sev3");
    expect(json.filterRules).toEqual([]);
  });

  it("points an Alertmanager webhook's trigger URL at the Alertmanager endpoint, and names its source", () => {
    const validUntil = new Date("2030-01-02T03:04:05.000Z");
    const signed = webhookJson(
      alerts.Webhook.fromPartial({ webhookUrl: "tok_1", source: alerts.WebhookSource.WEBHOOK_SOURCE_SIGNED }),
      "https://pg.example",
    );
    const alertmanager = webhookJson(
      alerts.Webhook.fromPartial({
        webhookUrl: "tok_2",
        source: alerts.WebhookSource.WEBHOOK_SOURCE_ALERTMANAGER,
        previousBearerTokenValidUntil: validUntil,
      }),
      "https://pg.example",
    );
    expect(signed).toMatchObject({ source: "signed", triggerUrl: "https://pg.example/api/alerts/trigger/tok_1" });
    expect(signed.previousBearerTokenValidUntil).toBeNull();
    expect(alertmanager).toMatchObject({
      source: "alertmanager",
      triggerUrl: "https://pg.example/api/alerts/alertmanager/tok_2",
      previousBearerTokenValidUntil: validUntil.toISOString(),
    });
  });
});

describe("alertJson", () => {
  it("parses metadata and names the source", () => {
    const alert = alerts.Alert.fromPartial({
      id: "a1",
      state: alerts.AlertStatus.ALERT_STATUS_OPEN,
      source: alerts.AlertSource.ALERT_SOURCE_MONITOR,
      metadataJson: '{"env":"prod"}',
      severity: alerts.Severity.SEVERITY_SEV0,
      occurrenceCount: 2,
    });
    const json = alertJson(alert);
    expect(json).toMatchObject({
      status: "open",
      source: "monitor",
      metadata: { env: "prod" },
      severity: "sev0",
      groupKey: null,
    });
  });
});
