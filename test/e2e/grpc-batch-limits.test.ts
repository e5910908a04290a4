// BATCH_LIMITS: the alerts and monitors servers take at most maxItemsPerCall items in one batch call
// (the gateway's batchers never send more); one more is refused whole, as INVALID_ARGUMENT.
import { status } from "@grpc/grpc-js";
import { callUnary, connectClient } from "@pulsegate/grpc";
import { BATCH_LIMITS } from "@pulsegate/limits";
import { alerts, monitors } from "@pulsegate/proto";
import { afterAll, describe, expect, inject, it } from "vitest";

const stack = inject("stack");
const alertsClient = connectClient(alerts.AlertsServiceClient, stack.grpc.alerts, { deadlineMs: 10_000 });
const monitorsClient = connectClient(monitors.MonitorsServiceClient, stack.grpc.monitors, { deadlineMs: 10_000 });
afterAll(() => {
  alertsClient.close();
  monitorsClient.close();
});

const max = BATCH_LIMITS.maxItemsPerCall;
const refusal = (sentence: string) => ({ code: status.INVALID_ARGUMENT, details: sentence });

describe("batch gRPC calls", () => {
  it("monitors resolves up to the maximum of ping URLs in one call and refuses one more", async () => {
    const pingUrls = (count: number) => Array.from({ length: count }, (_, i) => `no-such-ping-url-${i}`);
    const resolve = (count: number) =>
      callUnary(monitorsClient, monitorsClient.resolveMonitors, { pingUrls: pingUrls(count) });
    expect((await resolve(max)).monitors).toHaveLength(max);
    await expect(resolve(max + 1)).rejects.toMatchObject(refusal(`At most ${max} per call.`));
  });

  it("alerts answers up to the maximum of resolves by key in one call and refuses one more", async () => {
    const items = (count: number): alerts.ResolveByKeyItem[] =>
      Array.from({ length: count }, (_, i) => ({
        teamId: "no-such-team",
        source: alerts.AlertSource.ALERT_SOURCE_WEBHOOK,
        sourceId: "no-such-webhook",
        groupKey: `key-${i}`,
      }));
    const resolve = (count: number) =>
      callUnary(alertsClient, alertsClient.resolveAlertsByKey, { items: items(count), dryRun: true });
    expect((await resolve(max)).results).toHaveLength(max);
    await expect(resolve(max + 1)).rejects.toMatchObject(refusal(`At most ${max} items per call.`));
  });
});
