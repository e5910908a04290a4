// With NOTIFY_ALLOW_PRIVATE_NETWORKS=false (production), channel
// URLs that reach loopback, private or link-local addresses are refused.
// No alert is triggered here, so nothing is ever sent anywhere.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "../support/client.ts";
import { Stack } from "../support/stack.ts";

let stack: Stack;
let client: Client;

beforeAll(async () => {
  stack = await Stack.create({
    databaseName: `pulsegate_e2e_notify_private_${process.pid}`,
    env: { NOTIFY_ALLOW_PRIVATE_NETWORKS: "false" },
  });
  client = new Client(stack.info);
});

afterAll(async () => {
  await stack?.destroy();
});

const refusal = {
  field: "url",
  message: "url points to a loopback, private or link-local address; notifications go to public addresses only.",
};

describe("private network guard", () => {
  it.each([
    "http://127.0.0.1:8080/hook",
    "http://localhost:8080/hook",
    "http://[::1]/hook",
    "http://[::ffff:127.0.0.1]/hook",
    "http://169.254.169.254/latest/meta-data/",
    "http://10.1.2.3/hook",
    "http://192.168.0.10/hook",
    "http://[fd00::1]/hook",
    "http://0.0.0.0/hook",
  ])("refuses a channel at %s with a 400 that says why", async (url) => {
    const { teamId } = await client.createTeam();
    const response = await client.admin("POST", `/teams/${teamId}/channels`, { kind: "webhook", name: "x", url });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: "invalid_request", details: [refusal] });
    expect((await client.admin("GET", `/teams/${teamId}/channels`)).body).toEqual({ channels: [], nextCursor: null });
  });

  it("accepts a public address, and refuses moving that channel to a private one", async () => {
    const { teamId } = await client.createTeam();
    const created = await client.admin("POST", `/teams/${teamId}/channels`, {
      kind: "webhook",
      name: "public",
      url: "https://93.184.216.34/hook",
    });
    expect(created.status).toBe(201);
    const id = (created.body.channel as { id: string }).id;
    const moved = await client.admin("PATCH", `/channels/${id}`, { url: "http://127.0.0.1/hook" });
    expect(moved.status).toBe(400);
    expect(moved.body).toMatchObject({ details: [refusal] });
  });
});
