// Secrets, signatures and bodies never reach logs: run a stack of our own, drive it, read everything it printed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, sign } from "../support/client.ts";
import { Stack } from "../support/stack.ts";

let stack: Stack;

beforeAll(async () => {
  stack = await Stack.create({ databaseName: `pulsegate_logs_${process.pid}`, env: { LOG_LEVEL: "debug" } });
});

afterAll(async () => {
  await stack?.destroy();
});

describe("log hygiene", () => {
  it("prints no secret, signature, admin token or body, even at debug level and on errors", async () => {
    const client = new Client(stack.info);
    const { teamId, secret, webhookUrl } = await client.setup();
    const marker = "BODY-MARKER-7d1f0c";
    const body = JSON.stringify({ title: marker, metadata: { note: marker } });
    const signature = sign(secret, body);
    expect((await client.trigger(webhookUrl, body, { signature })).status).toBe(201);
    const badSignature = sign("e".repeat(64), body);
    expect((await client.trigger(webhookUrl, body, { signature: badSignature })).status).toBe(401);
    expect((await client.trigger(webhookUrl, `{"title": "${marker}"`, { secret })).status).toBe(400);
    const rotated = (await client.admin("POST", `/teams/${teamId}/webhook-secret/rotate`, {})).body
      .webhookSecret as string;
    await new Promise((done) => setTimeout(done, 300));

    const output = stack.output();
    expect(output.length).toBeGreaterThan(0);
    // The logs saw these requests (so the search means something)...
    expect(output).toContain("/api/alerts/trigger/");
    // ...but none of what must stay private.
    for (const forbidden of [secret, rotated, signature, badSignature, marker, stack.info.adminToken]) {
      expect(output).not.toContain(forbidden);
    }
  });
});
