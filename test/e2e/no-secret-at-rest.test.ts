// DESIGN §3: the database holds no secret text. Dump it whole and search.
import { execFileSync } from "node:child_process";
import { describe, expect, inject, it } from "vitest";
import { Client } from "../support/client.ts";

const stack = inject("stack");
const client = new Client(stack);

describe("secrets at rest", () => {
  it("stores neither the secret text nor a rotated one anywhere in the database", async () => {
    const { teamId, secret, webhookUrl } = await client.setup();
    expect((await client.trigger(webhookUrl, { title: "used once" }, { secret })).status).toBe(201);
    const rotated = (await client.admin("POST", `/teams/${teamId}/webhook-secret/rotate`, {})).body
      .webhookSecret as string;
    const dump = execFileSync("pg_dump", ["--data-only", "--inserts", stack.databaseUrl], {
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024,
    });
    // The dump does hold the team (so the search is over the right data)...
    expect(dump).toContain(teamId);
    // ...but not the secrets, in any casing or encoding we could have used.
    for (const value of [secret, rotated]) {
      expect(dump.toLowerCase()).not.toContain(value);
      expect(dump).not.toContain(Buffer.from(value).toString("base64"));
      expect(dump).not.toContain(Buffer.from(value, "hex").toString("base64"));
    }
  });
});
