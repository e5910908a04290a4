// The names an admin gives a team, webhook, monitor, channel, silence or API key end up in
// badges (XML), chat messages, the dashboard and terminals: a control character in one
// (C0, U+0000 to U+001F, or DEL, U+007F) is refused with 400 naming the field, on create
// and on rename, while any other text stays welcome.
import { randomUUID } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { Client } from "../support/client.ts";
import { createChannel } from "./notifications-helpers.ts";

const stack = inject("stack");
const client = new Client(stack);

type Attempt = (name: string) => Promise<{ status: number; body: Record<string, unknown> }>;

const silenceWindow = () => {
  const startsAt = new Date(Date.now() + 3_600_000);
  return { startsAt: startsAt.toISOString(), endsAt: new Date(startsAt.getTime() + 3_600_000).toISOString() };
};

/** Every place a name is given: what is sent, in a fresh team. */
const places: [string, () => Promise<Attempt>][] = [
  ["creating a team", async () => (name) => client.admin("POST", "/teams", { name })],
  [
    "renaming a team",
    async () => {
      const { teamId } = await client.createTeam();
      return (name) => client.admin("PATCH", `/teams/${teamId}`, { name });
    },
  ],
  [
    "creating a webhook",
    async () => {
      const { teamId } = await client.createTeam();
      return (name) => client.admin("POST", `/teams/${teamId}/webhooks`, { name });
    },
  ],
  [
    "renaming a webhook",
    async () => {
      const { teamId } = await client.createTeam();
      const webhook = await client.createWebhook(teamId);
      return (name) => client.admin("PATCH", `/webhooks/${webhook.id}`, { name });
    },
  ],
  [
    "creating a monitor",
    async () => {
      const { teamId } = await client.createTeam();
      return (name) => client.admin("POST", `/teams/${teamId}/monitors`, { name });
    },
  ],
  [
    "creating a channel",
    async () => {
      const { teamId } = await client.createTeam();
      return (name) =>
        client.admin("POST", `/teams/${teamId}/channels`, { kind: "webhook", name, url: "https://example.com/hook" });
    },
  ],
  [
    "renaming a channel",
    async () => {
      const { teamId } = await client.createTeam();
      const channel = await createChannel(client, teamId, { kind: "webhook", url: "https://example.com/hook" });
      return (name) => client.admin("PATCH", `/channels/${channel.id}`, { name });
    },
  ],
  [
    "creating a silence",
    async () => {
      const { teamId } = await client.createTeam();
      return (name) => client.admin("POST", `/teams/${teamId}/silences`, { name, ...silenceWindow() });
    },
  ],
  [
    "creating an API key",
    async () => {
      const { teamId } = await client.createTeam();
      return (name) => client.admin("POST", `/teams/${teamId}/api-keys`, { name, scope: "read" });
    },
  ],
];

describe("resource names", () => {
  it.each(places)("%s: a control character inside the name is refused with 400 naming the field", async (_, setUp) => {
    const attempt = await setUp();
    for (const name of ["a\u0001b", "bell\u0007", "tab\tinside", "line\nbreak", "escape\u001b[31m", "del\u007f"]) {
      const response = await attempt(name);
      expect(response.status, JSON.stringify(name)).toBe(400);
      expect(response.body).toMatchObject({
        code: "invalid_request",
        details: [{ field: "name", message: "name must not contain control characters (U+0000 to U+001F, U+007F)." }],
      });
    }
  });

  it.each(places)("%s: any other text is a name, blanks around it trimmed", async (_, setUp) => {
    const attempt = await setUp();
    // Team names are unique across the shared stack: each place gives its own.
    const tag = randomUUID().slice(0, 6);
    const response = await attempt(`\t Café ☕ nightly · über-backup ${tag} \n`);
    expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
    expect(JSON.stringify(response.body)).toContain(`"name":"Café ☕ nightly · über-backup ${tag}"`);
  });
});
