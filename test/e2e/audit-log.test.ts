// The audit log: admin actions on a team, with their actor, newest first, paginated.
import { describe, expect, inject, it } from "vitest";
import { Client } from "../support/client.ts";
import { eventually } from "../support/eventually.ts";

const client = new Client(inject("stack"));

type Entry = {
  id: string;
  at: string;
  actor: { kind: string; id: string | null; name: string | null };
  action: string;
  target: { kind: string; id: string };
  details: Record<string, unknown>;
};

async function auditLog(teamId: string, query = "", token?: string) {
  const answer = await client.admin("GET", `/teams/${teamId}/audit-log${query}`, undefined, token);
  if (answer.status !== 200) throw new Error(`audit log: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body as { entries: Entry[]; nextCursor: string | null };
}

describe("audit log", () => {
  it("records a sequence of admin actions with who did them, newest first, without secrets", async () => {
    const { teamId, secret, webhookId, webhookUrl } = await client.setup();
    const rotated = await client.admin("POST", `/teams/${teamId}/webhook-secret/rotate`, { graceSeconds: 60 });
    const key = await client.admin("POST", `/teams/${teamId}/api-keys`, { name: "ops bot", scope: "write" });
    const keyId = (key.body.apiKey as { id: string }).id;
    const token = key.body.token as string;
    await client.admin("PATCH", `/webhooks/${webhookId}`, { enabled: false, name: "CI (off)" }, token);
    const monitor = await client.admin("POST", `/teams/${teamId}/monitors`, { name: "backup" }, token);
    const monitorId = (monitor.body.monitor as { id: string }).id;
    await client.admin("POST", `/monitors/${monitorId}/pause`, undefined, token);
    const channel = await client.admin(
      "POST",
      `/teams/${teamId}/channels`,
      { kind: "slack", name: "#ops", url: "http://127.0.0.1:9/services/T0/B0/secretpart" },
      token,
    );
    const channelId = (channel.body.channel as { id: string }).id;
    await client.admin("DELETE", `/channels/${channelId}`);
    await client.admin("POST", `/api-keys/${keyId}/revoke`);
    // Reads and refused requests are not actions.
    await client.admin("GET", `/teams/${teamId}`);
    await client.admin("POST", `/teams/${teamId}/webhooks`, { name: "" });

    const expected = [
      ["api_key.revoke", "admin", "api_key", keyId],
      ["channel.delete", "admin", "channel", channelId],
      ["channel.create", "api_key", "channel", channelId],
      ["monitor.pause", "api_key", "monitor", monitorId],
      ["monitor.create", "api_key", "monitor", monitorId],
      ["webhook.update", "api_key", "webhook", webhookId],
      ["api_key.create", "admin", "api_key", keyId],
      ["team.rotate_secret", "admin", "team", teamId],
      ["webhook.create", "admin", "webhook", webhookId],
      ["team.create", "admin", "team", teamId],
    ];
    const { entries, nextCursor } = await eventually(
      async () => {
        const page = await auditLog(teamId);
        return page.entries.length >= expected.length ? page : undefined;
      },
      { what: "every audit entry" },
    );
    expect(nextCursor).toBeNull();
    expect(entries.map((entry) => [entry.action, entry.actor.kind, entry.target.kind, entry.target.id])).toEqual(
      expected,
    );
    // The four changes made with the key name it, id and name.
    const byKey = entries.filter((entry) => entry.actor.kind === "api_key");
    expect(byKey.map((entry) => entry.actor)).toEqual(
      Array.from({ length: 4 }, () => ({ kind: "api_key", id: keyId, name: "ops bot" })),
    );
    for (const entry of entries.filter((entry) => entry.actor.kind === "admin")) {
      expect(entry.actor).toEqual({ kind: "admin", id: null, name: null });
    }
    expect(entries.find((entry) => entry.action === "webhook.update")?.details).toEqual({
      fields: ["enabled", "name"],
      enabled: false,
    });
    expect(entries.find((entry) => entry.action === "team.rotate_secret")?.details).toEqual({ graceSeconds: 60 });
    const times = entries.map((entry) => Date.parse(entry.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    const text = JSON.stringify(entries);
    for (const secretText of [secret, rotated.body.webhookSecret as string, token, "secretpart", webhookUrl]) {
      expect(text).not.toContain(secretText);
    }
  });

  it("pages with limit and cursor, and is readable by the team's own keys only", async () => {
    const { teamId } = await client.createTeam();
    for (const name of ["a", "b", "c", "d"]) await client.admin("PATCH", `/teams/${teamId}`, { name });
    const all = await eventually(async () => {
      const page = await auditLog(teamId);
      return page.entries.length === 5 ? page.entries : undefined;
    });
    const first = await auditLog(teamId, "?limit=2");
    expect(first.entries).toEqual(all.slice(0, 2));
    const second = await auditLog(teamId, `?limit=2&cursor=${first.nextCursor}`);
    expect(second.entries).toEqual(all.slice(2, 4));
    const third = await auditLog(teamId, `?limit=2&cursor=${second.nextCursor}`);
    expect(third).toEqual({ entries: all.slice(4), nextCursor: null });

    const readKey = await client.admin("POST", `/teams/${teamId}/api-keys`, { name: "reader", scope: "read" });
    const token = readKey.body.token as string;
    expect((await auditLog(teamId, "?limit=1", token)).entries).toHaveLength(1);
    const other = await client.createTeam();
    const refused = await client.admin("GET", `/teams/${other.teamId}/audit-log`, undefined, token);
    expect(refused.status).toBe(404);
    const badCursor = await client.admin("GET", `/teams/${teamId}/audit-log?cursor=nonsense`);
    expect(badCursor.status).toBe(400);
    expect(badCursor.body.code).toBe("invalid_cursor");
  });

  it("a DELETE with an unset id (the README's $SILENCE_ID) is 404 and leaves the log flowing", async () => {
    const { teamId } = await client.createTeam();
    const unset = await client.admin("DELETE", `/teams/${teamId}/silences/`);
    expect(unset.status).toBe(404);
    expect(unset.body).toMatchObject({ code: "not_found", error: "No such endpoint: the path's id is empty." });
    // A later action is logged (nothing waits ahead of it), and the refused DELETE is not.
    await client.admin("PATCH", `/teams/${teamId}`, { name: "after the unset id" });
    const entries = await eventually(async () => {
      const page = await auditLog(teamId);
      return page.entries.some((entry) => entry.action === "team.update") ? page.entries : undefined;
    });
    expect(entries.map((entry) => entry.action)).toEqual(["team.update", "team.create"]);
  });
});
