// Migration 0006 seals the channel URLs stored before it, drops the plain column, and
// `resealChannels` (npm run rotate-kek) moves every sealed value to the newest KEK.
import { randomBytes } from "node:crypto";
import { createPgPool, openServiceDatabase, type PgPool } from "@pulsegate/db";
import { createLogger } from "@pulsegate/runtime/logger";
import { kekId, parseKeyring, SealedValueError, sealedValueKekId } from "@pulsegate/sealing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALERTS_SCHEMA, openAlertsDatabase } from "../../services/alerts/src/app.ts";
import { loadAlertsConfig } from "../../services/alerts/src/config.ts";
import { migrations } from "../../services/alerts/src/migrations/index.ts";
import { ChannelSealer } from "../../services/alerts/src/notifications/channels/channel-credentials.ts";
import { resealChannels } from "../../services/alerts/src/notifications/channels/reseal-channels.ts";
import { WebhookSchema } from "../../services/alerts/src/webhooks/webhook.entity.ts";
import { dropDatabase, recreateDatabase, TEST_DATABASE_SERVER } from "../support/database.ts";

const databaseName = `pulsegate_it_seal_channels_${process.pid}`;
const log = createLogger("test", "silent");
const OLD = randomBytes(32).toString("base64");
const NEW = randomBytes(32).toString("base64");
const url = `${TEST_DATABASE_SERVER}/${databaseName}`;
const config = (kek: string) =>
  loadAlertsConfig({ DATABASE_URL: url, DB_POOL_MAX: "2", SECRET_KEK: kek, NODE_ENV: "test" });
let pool: PgPool;

beforeAll(async () => {
  await recreateDatabase(databaseName);
  pool = createPgPool({ url, max: 2 });
});

afterAll(async () => {
  await pool?.end();
  await dropDatabase(databaseName);
});

const urls = Array.from(
  { length: 3 },
  (_, i) => `https://hooks.slack.com/services/T00${i}/B00${i}/${randomBytes(12).toString("hex")}`,
);

describe("sealing channel credentials", () => {
  it("seals the URLs stored before migration 0006 and drops the plain column", async () => {
    // The schema as it was before 0006, with channels in it.
    const before = await openServiceDatabase(
      { url, schema: ALERTS_SCHEMA, entities: [WebhookSchema], migrations: migrations.slice(0, 5), poolMax: 2 },
      log,
    );
    await before.close();
    for (const [i, channelUrl] of urls.entries()) {
      await pool.query(
        `INSERT INTO alerts.channels (id, team_id, kind, name, url, enabled, created_at, updated_at)
         VALUES ($1, 'team_1', 'slack', $2, $3, true, now(), now())`,
        [`ch_${i}`, `channel ${i}`, channelUrl],
      );
    }

    const orm = await openAlertsDatabase(config(OLD), log);
    await orm.close();

    const { rows: columns } = await pool.query(
      "SELECT column_name FROM information_schema.columns WHERE table_schema = 'alerts' AND table_name = 'channels'",
    );
    expect(columns.map((column) => column.column_name)).not.toContain("url");
    const { rows } = await pool.query<{ id: string; credentials_sealed: Buffer; masked_url: string }>(
      "SELECT id, credentials_sealed, masked_url FROM alerts.channels ORDER BY id",
    );
    const sealer = new ChannelSealer(parseKeyring(OLD, undefined, "test"));
    expect(rows.map((row) => sealer.open(row.id, row.credentials_sealed).url)).toEqual(urls);
    expect(rows.map((row) => row.masked_url)).toEqual(urls.map((u) => `https://hooks.slack.com/…${u.slice(-4)}`));
    for (const row of rows) expect(row.credentials_sealed.includes(Buffer.from(urls[0] as string))).toBe(false);
    // Bound to its channel: a value moved onto another row does not open.
    expect(() => sealer.open("ch_1", (rows[0] as { credentials_sealed: Buffer }).credentials_sealed)).toThrow(
      SealedValueError,
    );
  });

  it("re-seals every channel under the newest KEK, after which the old one is not needed", async () => {
    const rotating = new ChannelSealer(parseKeyring(`${NEW},${OLD}`, undefined, "test"));
    expect(await resealChannels(pool, rotating)).toEqual({ resealed: 3, alreadyCurrent: 0 });
    expect(await resealChannels(pool, rotating)).toEqual({ resealed: 0, alreadyCurrent: 3 });
    const { rows } = await pool.query<{ id: string; credentials_sealed: Buffer }>(
      "SELECT id, credentials_sealed FROM alerts.channels ORDER BY id",
    );
    const newId = kekId(Buffer.from(NEW, "base64"));
    expect(rows.map((row) => sealedValueKekId(row.credentials_sealed))).toEqual([newId, newId, newId]);
    const onlyNew = new ChannelSealer(parseKeyring(NEW, undefined, "test"));
    expect(rows.map((row) => onlyNew.open(row.id, row.credentials_sealed).url)).toEqual(urls);
  });
});
