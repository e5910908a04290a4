// The look-ups by public token under both names while a previous release may call the old ones
// (docs/decisions.md, "RPC names: add, then remove"): alerts and monitors answer the deprecated
// Resolve* exactly as the Lookup* they stand for, found or not.
import { callUnary, connectClient } from "@pulsegate/grpc";
import { alerts, monitors } from "@pulsegate/proto";
import { afterAll, describe, expect, inject, it } from "vitest";
import { Client } from "../support/client.ts";

const stack = inject("stack");
const client = new Client(stack);
const alertsClient = connectClient(alerts.AlertsServiceClient, stack.grpc.alerts, { deadlineMs: 10_000 });
const monitorsClient = connectClient(monitors.MonitorsServiceClient, stack.grpc.monitors, { deadlineMs: 10_000 });
afterAll(() => {
  alertsClient.close();
  monitorsClient.close();
});

const UNKNOWN = "no-such-token-0123456789abcdefghij";

describe("look-ups under their new and their deprecated names", () => {
  it("alerts answers ResolveWebhook as LookupWebhook", async () => {
    const { webhookId, webhookUrl } = await client.setup();
    const found = await callUnary(alertsClient, "lookupWebhook", { webhookUrl });
    expect(found.webhook?.id).toBe(webhookId);
    expect(await callUnary(alertsClient, "resolveWebhook", { webhookUrl })).toEqual(found);
    expect(await callUnary(alertsClient, "lookupWebhook", { webhookUrl: UNKNOWN })).toEqual({ webhook: undefined });
    expect(await callUnary(alertsClient, "resolveWebhook", { webhookUrl: UNKNOWN })).toEqual({ webhook: undefined });
  });

  it("monitors answers ResolveMonitor, ResolveMonitors and ResolveBadge as their Lookup names", async () => {
    const { monitorId, pingUrl } = await client.setupMonitor();
    const found = await callUnary(monitorsClient, "lookupMonitor", { pingUrl });
    expect(found.monitor?.id).toBe(monitorId);
    expect(await callUnary(monitorsClient, "resolveMonitor", { pingUrl })).toEqual(found);

    const many = await callUnary(monitorsClient, "lookupMonitors", { pingUrls: [pingUrl, UNKNOWN] });
    expect(many.monitors.map((entry) => entry.monitor?.id)).toEqual([monitorId, undefined]);
    expect(await callUnary(monitorsClient, "resolveMonitors", { pingUrls: [pingUrl, UNKNOWN] })).toEqual(many);

    const badgeToken = found.monitor?.badgeToken ?? "";
    const badge = await callUnary(monitorsClient, "lookupBadge", { badgeToken });
    expect(badge.monitor?.id).toBe(monitorId);
    expect(await callUnary(monitorsClient, "resolveBadge", { badgeToken })).toEqual(badge);
    expect(await callUnary(monitorsClient, "resolveBadge", { badgeToken: UNKNOWN })).toEqual({ monitor: undefined });
  });
});
