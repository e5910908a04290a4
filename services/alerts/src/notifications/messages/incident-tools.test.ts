import { describe, expect, it } from "vitest";
import { opsgenieRequest, pagerDutyBody } from "./incident-tools.ts";
import type { NotificationEvent } from "./notification-event.ts";

const event = (type: string, alert: Partial<NotificationEvent["alert"]> = {}): NotificationEvent => ({
  type,
  occurredAt: "2026-03-01T10:00:00.000Z",
  alert: { id: "alert_1", title: "Disk full", severity: "sev1", occurrenceCount: 1, status: "open", ...alert },
});

const json = (body: Buffer) => JSON.parse(body.toString("utf8")) as Record<string, unknown>;

describe("incident tools: an acknowledgement and a resolve act on the incident of the alert", () => {
  it("PagerDuty: acknowledge and resolve events on the alert's dedup key, with no payload", () => {
    expect(json(pagerDutyBody(event("alert.acknowledged", { acknowledgedBy: "Bob" }), "rk"))).toEqual({
      routing_key: "rk",
      event_action: "acknowledge",
      dedup_key: "alert_1",
    });
    expect(json(pagerDutyBody(event("alert.resolved"), "rk"))).toEqual({
      routing_key: "rk",
      event_action: "resolve",
      dedup_key: "alert_1",
    });
  });

  it("Opsgenie: acknowledge and close by alias, with a note saying who", () => {
    const acknowledged = opsgenieRequest(
      event("alert.acknowledged", { acknowledgedBy: "Bob" }),
      "https://api.opsgenie.com/v2/alerts/",
      "key",
    );
    expect(acknowledged.url).toBe("https://api.opsgenie.com/v2/alerts/alert_1/acknowledge?identifierType=alias");
    expect(json(acknowledged.body)).toEqual({ source: "Pulsegate", note: "Acknowledged by Bob" });
    expect(acknowledged.headers).toEqual({ authorization: "GenieKey key" });
    const resolved = opsgenieRequest(event("alert.resolved"), "https://api.opsgenie.com/v2/alerts", "key");
    expect(resolved.url).toBe("https://api.opsgenie.com/v2/alerts/alert_1/close?identifierType=alias");
    expect(json(resolved.body)).toEqual({ source: "Pulsegate", note: "Resolved" });
  });
});
