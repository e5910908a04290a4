// Email as a channel kind, through an SMTP relay (a local sink here), the outbox and retries.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "../support/client.ts";
import { eventually } from "../support/eventually.ts";
import { SmtpSink } from "../support/smtp-sink.ts";
import { Stack } from "../support/stack.ts";
import { waitForDeliveries } from "./notifications-helpers.ts";

let sink: SmtpSink;
let stack: Stack;
let client: Client;

beforeAll(async () => {
  sink = await SmtpSink.start();
  stack = await Stack.create({
    databaseName: `pulsegate_e2e_email_${process.pid}`,
    serviceEnv: (name) =>
      name === "alerts" ? { SMTP_URL: sink.url, SMTP_FROM: "Pulsegate <alerts@pulsegate.test>" } : {},
  });
  client = new Client(stack.info);
}, 90_000);

afterAll(async () => {
  await stack?.destroy();
  await sink?.close();
});

describe("email channels", () => {
  it("mails created and resolved events to the channel's recipients; the address is shown masked", async () => {
    const { teamId, secret, webhookUrl } = await client.setup();
    const created = await client.admin("POST", `/teams/${teamId}/channels`, {
      kind: "email",
      name: "On-call mail",
      url: "mailto:oncall@example.com,lead@example.com",
    });
    expect(created.status).toBe(201);
    expect(created.body.channel).toMatchObject({ kind: "email", maskedUrl: "mailto:o…@example.com (+1)" });

    const trigger = await client.trigger(
      webhookUrl,
      { title: "Disk full on db-1", description: "Only 2% left", severity: "sev1", metadata: { host: "db-1" } },
      { secret },
    );
    const alertId = trigger.body.alertId as string;
    await client.admin("POST", `/alerts/${alertId}/resolve`);
    await waitForDeliveries(
      client,
      alertId,
      (list) => list.length === 2 && list.every((delivery) => delivery.status === "delivered"),
      "two mails delivered",
    );
    const mails = await eventually(async () => (sink.mails.length >= 2 ? sink.mails : undefined));
    const [first, second] = mails;
    expect(first?.to).toEqual(["oncall@example.com", "lead@example.com"]);
    expect(first?.from).toContain("alerts@pulsegate.test");
    expect(first?.data).toContain("Subject: [SEV1] Alert created: Disk full on db-1");
    expect(first?.data).toContain("Only 2% left");
    expect(first?.data).toContain("host: db-1");
    expect(first?.data).toMatch(/X-Pulsegate-Delivery: dlv_/);
    expect(second?.data).toContain("Subject: [SEV1] Alert resolved: Disk full on db-1");
  });

  it("a permanent SMTP refusal (5xx) fails the delivery at once, with a reason", async () => {
    const { teamId, secret, webhookUrl } = await client.setup();
    await client.admin("POST", `/teams/${teamId}/channels`, {
      kind: "email",
      name: "m",
      url: "mailto:nobody@example.com",
    });
    sink.refuseWith = 550;
    try {
      const trigger = await client.trigger(webhookUrl, { title: "x" }, { secret });
      const [delivery] = await waitForDeliveries(
        client,
        trigger.body.alertId as string,
        (list) => list[0]?.status === "failed",
        "failed",
      );
      expect(delivery).toMatchObject({ status: "failed", attempts: 1 });
    } finally {
      sink.refuseWith = null;
    }
  });

  it("refuses a url that is not mailto: with valid addresses, and a key", async () => {
    const { teamId } = await client.createTeam();
    for (const url of ["https://example.com", "mailto:", "mailto:not-an-address", "mailto:a@b.example,<x>@y"]) {
      const response = await client.admin("POST", `/teams/${teamId}/channels`, { kind: "email", name: "m", url });
      expect(response.status, url).toBe(400);
      expect(response.body).toMatchObject({ details: [{ field: "url" }] });
    }
    const keyed = await client.admin("POST", `/teams/${teamId}/channels`, {
      kind: "email",
      name: "m",
      url: "mailto:a@example.com",
      key: "k",
    });
    expect(keyed.body).toMatchObject({ details: [{ field: "key" }] });
  });
});
