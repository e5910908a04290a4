// A free-form JSON value in an admin body (a silence's matchers.metadata, a filter rule's value) is
// bounded by depth — ten levels, the trigger metadata's own rule — before anything recursive meets
// it, and a filter rule's value by size too: 400 naming the field. 5,000 levels had answered 500
// (JSON.stringify overflowing the stack), and so had an unpaired surrogate deeper than the text
// check walked.
import { status } from "@grpc/grpc-js";
import { callUnary, connectClient } from "@pulsegate/grpc";
import { alerts } from "@pulsegate/proto";
import { afterAll, describe, expect, inject, it } from "vitest";
import { Client } from "../support/client.ts";

const stack = inject("stack");
const client = new Client(stack);
const alertsClient = connectClient(alerts.AlertsServiceClient, stack.grpc.alerts, { deadlineMs: 5_000 });
afterAll(() => alertsClient.close());

const fieldsOf = (body: Record<string, unknown>) =>
  (body.details as { field: string }[] | undefined)?.map((detail) => detail.field);

const HOUR = 3_600_000;
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

/** `{"a":{"a":…leaf…}}`, `levels` objects deep, as raw JSON text (JSON.stringify could not write it). */
const nestedJson = (levels: number, leaf: string) => `${'{"a":'.repeat(levels)}${leaf}${"}".repeat(levels)}`;

/** An admin request with a raw JSON body, sent byte for byte. */
async function adminRaw(method: string, path: string, body: string) {
  const response = await fetch(`${stack.baseUrl}/admin/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${stack.adminToken}`, "content-type": "application/json" },
    body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const silenceWith = (metadata: string) =>
  `{"name":"Deep","startsAt":"${at(-60_000)}","endsAt":"${at(HOUR)}","matchers":{"metadata":${metadata}}}`;
const webhookWith = (value: string) =>
  `{"name":"Deep","filterRules":[{"field":"metadata.a","op":"==","value":${value}}]}`;

describe("deeply nested admin JSON", () => {
  it.each([5_000, 11])("a silence's matchers.metadata %i levels deep → 400 naming it", async (levels) => {
    const { teamId } = await client.createTeam();
    const response = await adminRaw("POST", `/teams/${teamId}/silences`, silenceWith(nestedJson(levels, '"x"')));
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("invalid_request");
    expect(fieldsOf(response.body)).toEqual(["matchers.metadata"]);
  });

  it.each([5_000, 11])("a filter rule's value %i levels deep → 400 naming it, on create and update", async (levels) => {
    const { teamId, webhookId } = await client.setup();
    const created = await adminRaw("POST", `/teams/${teamId}/webhooks`, webhookWith(nestedJson(levels, '"x"')));
    expect(created.status).toBe(400);
    expect(fieldsOf(created.body)).toEqual(["filterRules[0].value"]);
    const updated = await adminRaw("PATCH", `/webhooks/${webhookId}`, webhookWith(nestedJson(levels, '"x"')));
    expect(updated.status).toBe(400);
    expect(fieldsOf(updated.body)).toEqual(["filterRules[0].value"]);
  });

  it("an unpaired surrogate 70 levels down is a 400, not a 500", async () => {
    const { teamId } = await client.createTeam();
    const response = await adminRaw(
      "POST",
      `/teams/${teamId}/silences`,
      silenceWith(nestedJson(70, String.raw`"\ud800"`)),
    );
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("invalid_request");
  });

  it("an unpaired surrogate at the deepest level accepted is refused too, named", async () => {
    const { teamId } = await client.createTeam();
    const response = await adminRaw(
      "POST",
      `/teams/${teamId}/silences`,
      silenceWith(nestedJson(9, String.raw`"\ud800"`)),
    );
    expect(response.status).toBe(400);
    expect(fieldsOf(response.body)).toEqual([`matchers.metadata${".a".repeat(9)}`]);
  });

  it("keeps ten levels, the trigger metadata's own bound", async () => {
    const { teamId, webhookId } = await client.setup();
    const silence = await adminRaw("POST", `/teams/${teamId}/silences`, silenceWith(nestedJson(10, '"x"')));
    expect(silence.status).toBe(201);
    const webhook = await adminRaw("PATCH", `/webhooks/${webhookId}`, webhookWith(nestedJson(10, '"x"')));
    expect(webhook.status).toBe(200);
  });

  it("a filter rule's value over 10 KiB as JSON → 400 naming it", async () => {
    const { teamId } = await client.createTeam();
    const hosts = JSON.stringify(Array.from({ length: 2_000 }, (_, i) => `host-${i}.example.com`));
    const response = await adminRaw(
      "POST",
      `/teams/${teamId}/webhooks`,
      `{"name":"Big","filterRules":[{"field":"metadata.host","op":"in","value":${hosts}}]}`,
    );
    expect(response.status).toBe(400);
    expect(fieldsOf(response.body)).toEqual(["filterRules[0].value"]);
  });

  it("alerts refuses deep or big values from a gRPC caller (INVALID_ARGUMENT)", async () => {
    const { teamId } = await client.createTeam();
    const silence = {
      teamId,
      name: "Deep",
      startsAt: new Date(Date.now() - 60_000),
      endsAt: new Date(Date.now() + HOUR),
      recurrence: "",
      matchers: { sourceIds: [], groupKeyPrefix: "", metadataJson: nestedJson(5_000, '"x"') },
    };
    await expect(callUnary(alertsClient, "createSilence", silence)).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
    });
    const webhook = {
      teamId,
      name: "Big",
      defaultSeverity: alerts.Severity.SEVERITY_UNSPECIFIED,
      filterRules: [{ field: "metadata.host", op: "==", valueJson: JSON.stringify("x".repeat(10_240)) }],
      signatureScheme: alerts.SignatureScheme.SIGNATURE_SCHEME_UNSPECIFIED,
      source: alerts.WebhookSource.WEBHOOK_SOURCE_UNSPECIFIED,
    };
    await expect(callUnary(alertsClient, "createWebhook", webhook)).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
    });
  });
});
