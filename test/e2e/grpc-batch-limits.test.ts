// BATCH_LIMITS: the alerts and monitors servers take at most maxItemsPerCall items in one batch call
// (the gateway's batchers never send more); one more is refused whole, as INVALID_ARGUMENT. And
// AUDIT_LIMITS, which only the gateway's audit recorder meets, on auth's RecordAuditEntries; auth's
// GetTeamAccess takes as many team ids as a batch call takes items.
import { randomUUID } from "node:crypto";
import { status } from "@grpc/grpc-js";
import { AUDIT_LIMITS, BATCH_LIMITS } from "@pulsegate/contract/limits";
import { callUnary, connectClient } from "@pulsegate/grpc";
import { alerts, auth, monitors } from "@pulsegate/proto";
import { afterAll, describe, expect, inject, it } from "vitest";
import { Client } from "../support/client.ts";

const stack = inject("stack");
const alertsClient = connectClient(alerts.AlertsServiceClient, stack.grpc.alerts, { deadlineMs: 10_000 });
const monitorsClient = connectClient(monitors.MonitorsServiceClient, stack.grpc.monitors, { deadlineMs: 10_000 });
const authClient = connectClient(auth.AuthServiceClient, stack.grpc.auth, { deadlineMs: 10_000 });
afterAll(() => {
  alertsClient.close();
  monitorsClient.close();
  authClient.close();
});

const max = BATCH_LIMITS.maxItemsPerCall;
const refusal = (sentence: string) => ({ code: status.INVALID_ARGUMENT, details: sentence });

describe("batch gRPC calls", () => {
  it("monitors looks up to the maximum of ping URLs in one call and refuses one more", async () => {
    const pingUrls = (count: number) => Array.from({ length: count }, (_, i) => `no-such-ping-url-${i}`);
    const lookup = (count: number) => callUnary(monitorsClient, "lookupMonitors", { pingUrls: pingUrls(count) });
    expect((await lookup(max)).monitors).toHaveLength(max);
    await expect(lookup(max + 1)).rejects.toMatchObject(refusal(`At most ${max} per call.`));
  });

  it("monitors answers the deprecated ResolveMonitors as LookupMonitors, with the same bound", async () => {
    const pingUrls = (count: number) => Array.from({ length: count }, (_, i) => `no-such-ping-url-${i}`);
    const resolve = (count: number) => callUnary(monitorsClient, "resolveMonitors", { pingUrls: pingUrls(count) });
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
        idempotencyKey: "",
        requestFingerprint: "",
      }));
    const resolve = (count: number) =>
      callUnary(alertsClient, "resolveAlertsByKey", { items: items(count), dryRun: true });
    expect((await resolve(max)).results).toHaveLength(max);
    await expect(resolve(max + 1)).rejects.toMatchObject(refusal(`At most ${max} items per call.`));
  });
});

describe("auth's team access", () => {
  it("answers up to the maximum of teams in one call, in order (unset for no such team), and refuses one more", async () => {
    const { teamId } = await new Client(stack).createTeam({ alertQuotaMonthly: 42 });
    const teamIds = (count: number) => [teamId, ...Array.from({ length: count - 1 }, (_, i) => `no-such-team-${i}`)];
    const access = (count: number) => callUnary(authClient, "getTeamAccess", { teamIds: teamIds(count) });
    const { results } = await access(max);
    expect(results).toHaveLength(max);
    expect(results[0]?.access).toMatchObject({ subscriptionActive: true, alertQuotaMonthly: 42 });
    expect(results.slice(1).every((result) => result.access === undefined)).toBe(true);
    await expect(access(max + 1)).rejects.toMatchObject(refusal(`At most ${max} teams per call.`));
  });
});

describe("auth's audit log", () => {
  const entry = (teamId: string, fields: Partial<auth.AuditEntry> = {}): auth.AuditEntry => ({
    id: randomUUID(),
    teamId,
    at: new Date(),
    actorKind: auth.AuditActorKind.AUDIT_ACTOR_KIND_ADMIN,
    actorId: "",
    actorName: "",
    actorEmail: "",
    action: "limits.test",
    targetKind: "team",
    targetId: teamId,
    detailsJson: "",
    ...fields,
  });
  const record = (entries: auth.AuditEntry[]) => callUnary(authClient, "recordAuditEntries", { entries });

  it("records up to the maximum of entries in one call and refuses one more", async () => {
    const { teamId } = await new Client(stack).createTeam();
    const entries = (count: number) => Array.from({ length: count }, () => entry(teamId));
    await expect(record(entries(AUDIT_LIMITS.maxBatch))).resolves.toEqual({});
    await expect(record(entries(AUDIT_LIMITS.maxBatch + 1))).rejects.toMatchObject(
      refusal(`At most ${AUDIT_LIMITS.maxBatch} entries per call.`),
    );
  });

  it("takes an action of the maximum length and details of the maximum size, refusing one more", async () => {
    const { teamId } = await new Client(stack).createTeam();
    const max = AUDIT_LIMITS.maxTextLength;
    await expect(record([entry(teamId, { action: "a".repeat(max) })])).resolves.toEqual({});
    await expect(record([entry(teamId, { action: "a".repeat(max + 1) })])).rejects.toMatchObject(
      refusal("entries[0] needs an id, a team, an action and a target."),
    );
    // {"d":"…"}: 8 bytes around the value.
    const details = (bytes: number) => JSON.stringify({ d: "x".repeat(bytes - 8) });
    const maxBytes = AUDIT_LIMITS.maxDetailsBytes;
    await expect(record([entry(teamId, { detailsJson: details(maxBytes) })])).resolves.toEqual({});
    await expect(record([entry(teamId, { detailsJson: details(maxBytes + 1) })])).rejects.toMatchObject(
      refusal(`entries[0] has more than ${maxBytes} bytes of details.`),
    );
  });
});
