// DESIGN §3 rotation: old and new secrets both pass inside the grace window; the old one fails after it.
import { createHash } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { Client } from "../support/client.ts";

const client = new Client(inject("stack"));

describe("webhook secret rotation", () => {
  it("accepts old and new secrets inside the grace window and only the new one after it", async () => {
    const { teamId, secret: oldSecret, webhookUrl } = await client.setup();
    const rotated = await client.admin("POST", `/teams/${teamId}/webhook-secret/rotate`, { graceSeconds: 2 });
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get("cache-control")).toBe("no-store");
    const newSecret = rotated.body.webhookSecret as string;
    expect(newSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(newSecret).not.toBe(oldSecret);
    expect(Date.parse(rotated.body.previousValidUntil as string)).toBeGreaterThan(Date.now());

    expect((await client.trigger(webhookUrl, { title: "old" }, { secret: oldSecret })).status).toBe(201);
    expect((await client.trigger(webhookUrl, { title: "new" }, { secret: newSecret })).status).toBe(201);

    const team = await client.admin("GET", `/teams/${teamId}`);
    expect((team.body.team as { previousSecretLastUsedAt?: string }).previousSecretLastUsedAt).toEqual(
      expect.any(String),
    );

    // Until the end of the grace window the rotation reported has passed, not a guessed 2.5 s.
    const validUntil = Date.parse(rotated.body.previousValidUntil as string);
    await new Promise((done) => setTimeout(done, Math.max(0, validUntil + 100 - Date.now())));
    expect(Date.now()).toBeGreaterThan(validUntil);
    const old = await client.trigger(webhookUrl, { title: "old, late" }, { secret: oldSecret });
    expect(old.status).toBe(401);
    expect((await client.trigger(webhookUrl, { title: "new, later" }, { secret: newSecret })).status).toBe(201);
  });

  it("drops the previous secret at once with graceSeconds 0, and the older one on a second rotation", async () => {
    const { teamId, secret: first, webhookUrl } = await client.setup();
    const second = (await client.admin("POST", `/teams/${teamId}/webhook-secret/rotate`, { graceSeconds: 0 })).body
      .webhookSecret as string;
    expect((await client.trigger(webhookUrl, { title: "first" }, { secret: first })).status).toBe(401);
    const third = (await client.admin("POST", `/teams/${teamId}/webhook-secret/rotate`, {})).body
      .webhookSecret as string;
    expect((await client.trigger(webhookUrl, { title: "second" }, { secret: second })).status).toBe(201);
    expect((await client.trigger(webhookUrl, { title: "third" }, { secret: third })).status).toBe(201);
    await client.admin("POST", `/teams/${teamId}/webhook-secret/rotate`, {});
    expect((await client.trigger(webhookUrl, { title: "second, dropped" }, { secret: second })).status).toBe(401);
  });

  it("refuses a grace window outside 0..604800 seconds with 400", async () => {
    const { teamId } = await client.createTeam();
    const response = await client.admin("POST", `/teams/${teamId}/webhook-secret/rotate`, { graceSeconds: 604_801 });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("invalid_request");
  });
});

describe("concurrent rotations", () => {
  it("all succeed: the last one's secret is current and exactly one previous secret still verifies", async () => {
    const { teamId, secret: original, webhookUrl } = await client.setup();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => client.admin("POST", `/teams/${teamId}/webhook-secret/rotate`, {})),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    // The team now names its current and previous secret by fingerprint (sha256 of the secret text).
    const team = (await client.admin("GET", `/teams/${teamId}`)).body.team as {
      secretFingerprint: string;
      previousSecretFingerprint: string;
    };
    const secrets = answers.map((answer) => answer.body.webhookSecret as string);
    const byFingerprint = new Map(secrets.map((secret) => [createHash("sha256").update(secret).digest("hex"), secret]));
    const last = byFingerprint.get(team.secretFingerprint) as string;
    const previous = byFingerprint.get(team.previousSecretFingerprint) as string;
    expect(last).toEqual(expect.any(String));
    expect(previous).toEqual(expect.any(String));
    const verifies = async (secret: string) =>
      (await client.trigger(webhookUrl, { title: "after concurrent rotations" }, { secret })).status;
    expect(await verifies(last)).toBe(201);
    expect(await verifies(previous)).toBe(201);
    for (const dropped of [original, ...secrets.filter((secret) => secret !== last && secret !== previous)]) {
      expect(await verifies(dropped)).toBe(401);
    }
  });
});
