// SECRET_KEK takes the new key followed by the old ones; `npm run rotate-kek`
// re-seals every team secret and channel credential under the newest and prints counts; with the
// old key dropped and the services restarted, every team still verifies and every channel delivers.
import { execFile } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { kekId, sealedValueKekId } from "@pulsegate/sealing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.ts";
import { Client } from "../support/client.ts";
import { Receiver } from "../support/receiver.ts";
import { Stack } from "../support/stack.ts";
import { allSettled, createChannel, waitForDeliveries } from "./notifications-helpers.ts";

const root = resolve(import.meta.dirname, "../..");
const pinnedNode = resolve(root, "node_modules/.bin/node");
const nodeBinary = existsSync(pinnedNode) ? pinnedNode : process.execPath;

const OLD = randomBytes(32).toString("base64");
const NEW = randomBytes(32).toString("base64");
const NEW_ID = kekId(Buffer.from(NEW, "base64"));

let stack: Stack;
let client: Client;
let db: pg.Pool;
const receivers: Receiver[] = [];

beforeAll(async () => {
  stack = await Stack.create({ databaseName: `pulsegate_e2e_kek_${process.pid}`, env: { SECRET_KEK: OLD } });
  client = new Client(stack.info);
  db = new pg.Pool({ connectionString: stack.info.databaseUrl, max: 2 });
}, 90_000);

afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await db?.end();
  await stack?.destroy();
});

async function restartAll(kek: string): Promise<void> {
  await stack.stopAll();
  stack.configure({ SECRET_KEK: kek });
  for (const name of ["auth", "alerts", "monitors", "gateway"] as const) stack.start(name);
  await stack.waitReady();
}

async function rotateKek(kek: string): Promise<string> {
  const { stdout } = await promisify(execFile)(
    nodeBinary,
    ["--conditions=@pulsegate/source", "scripts/rotate-kek.ts"],
    {
      cwd: root,
      env: { PATH: process.env.PATH, NODE_ENV: "test", DATABASE_URL: stack.info.databaseUrl, SECRET_KEK: kek },
    },
  );
  return stdout;
}

describe("KEK rotation", () => {
  it("re-seals everything under the new KEK; with the old one dropped every team verifies and every channel delivers", async () => {
    const teams = [];
    for (let i = 0; i < 2; i++) {
      const { teamId, secret, webhookUrl } = await client.setup();
      const hook = await Receiver.start();
      receivers.push(hook);
      await createChannel(client, teamId, { kind: "webhook", url: hook.url(`/hook-${i}`) });
      const monitor = await client.createMonitor(teamId);
      teams.push({ teamId, secret, webhookUrl, hook, monitor });
    }
    // A rotated team has a previous secret, sealed too.
    const [first] = teams;
    if (!first) throw new Error("no team");
    const rotated = await client.admin("POST", `/teams/${first.teamId}/webhook-secret/rotate`, {
      graceSeconds: 3600,
    });
    const previousSecret = first.secret;
    first.secret = rotated.body.webhookSecret as string;

    await restartAll(`${NEW},${OLD}`);
    // The CLI (through the admin API) re-seals; the script then finds nothing left; both count.
    const cli = await runCli(["kek", "reseal"], {
      env: { PULSEGATE_URL: stack.info.baseUrl, PULSEGATE_TOKEN: stack.info.adminToken },
    });
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toBe(
      `teams (webhook secrets): 2 re-sealed, 0 already under KEK ${NEW_ID}\nchannels (credentials): 2 re-sealed, 0 already under KEK ${NEW_ID}\n`,
    );
    const output = await rotateKek(`${NEW},${OLD}`);
    expect(output).toContain(`auth.teams (webhook secrets): 0 re-sealed, 2 already under KEK ${NEW_ID}`);
    expect(output).toContain(`alerts.channels (channel credentials): 0 re-sealed, 2 already under KEK ${NEW_ID}`);
    // Every team at once: the admin token only, not a team's API key.
    const key = await client.admin("POST", `/teams/${first.teamId}/api-keys`, { name: "ops", scope: "write" });
    const refused = await client.admin("POST", "/kek/reseal", undefined, key.body.token as string);
    expect(refused.status).toBe(403);

    const { rows: teamRows } = await db.query<{ secret_sealed: Buffer; previous_secret_sealed: Buffer | null }>(
      "SELECT secret_sealed, previous_secret_sealed FROM auth.teams",
    );
    const teamKeks = teamRows.flatMap((row) => [row.secret_sealed, row.previous_secret_sealed ?? []]);
    expect(
      new Set(teamKeks.filter((blob) => Buffer.isBuffer(blob)).map((blob) => sealedValueKekId(blob as Buffer))),
    ).toEqual(new Set([NEW_ID]));
    const { rows: channelRows } = await db.query<{ credentials_sealed: Buffer }>(
      "SELECT credentials_sealed FROM alerts.channels",
    );
    expect(new Set(channelRows.map((row) => sealedValueKekId(row.credentials_sealed)))).toEqual(new Set([NEW_ID]));

    // The old KEK dropped everywhere.
    await restartAll(NEW);
    for (const team of teams) {
      const trigger = await client.trigger(
        team.webhookUrl,
        { title: "after the KEK rotation" },
        { secret: team.secret },
      );
      expect(trigger.status, JSON.stringify(trigger.body)).toBe(201);
      const [delivery] = await waitForDeliveries(client, trigger.body.alertId as string, allSettled, "delivered");
      expect(delivery?.status).toBe("delivered");
      const [request] = await team.hook.waitForCount(1);
      const expected = createHmac("sha256", team.secret)
        .update(request?.raw ?? "")
        .digest("hex");
      expect(request?.headers["x-webhook-signature"]).toBe(expected);
      expect((await client.ping(team.monitor.pingUrl, undefined, { secret: team.secret })).status).toBe(200);
    }
    // The previous secret, inside its grace window, was re-sealed as well.
    expect((await client.ping(first.monitor.pingUrl, undefined, { secret: previousSecret })).status).toBe(200);

    // Nothing left under an old key.
    const again = await rotateKek(NEW);
    expect(again).toContain(`auth.teams (webhook secrets): 0 re-sealed, 2 already under KEK ${NEW_ID}`);
    expect(again).toContain(`alerts.channels (channel credentials): 0 re-sealed, 2 already under KEK ${NEW_ID}`);
  }, 120_000);
});
