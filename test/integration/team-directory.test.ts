// Auth's team directory holds every team's sealed keys, loaded in full and
// refreshed by updated_at, so a replica learns of teams created and rotated through another.
import { createHmac, randomBytes } from "node:crypto";
import type { Orm } from "@pulsegate/db";
import { createLogger } from "@pulsegate/runtime/logger";
import { parseKeyring } from "@pulsegate/sealing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAuthDatabase } from "../../services/auth/src/app.ts";
import { loadAuthConfig } from "../../services/auth/src/config.ts";
import { TeamDirectory } from "../../services/auth/src/teams/team-directory.ts";
import { TeamKeys } from "../../services/auth/src/teams/team-keys.ts";
import { TeamService } from "../../services/auth/src/teams/team-service.ts";
import { dropDatabase, recreateDatabase, TEST_DATABASE_SERVER } from "../support/database.ts";
import { hostPortOf, TcpProxy } from "../support/tcp-proxy.ts";

const databaseName = `pulsegate_it_team_directory_${process.pid}`;
const log = createLogger("test", "silent");
const keyring = parseKeyring(randomBytes(32).toString("base64"), undefined, "test");
let orm: Orm;

beforeAll(async () => {
  await recreateDatabase(databaseName);
  orm = await openAuthDatabase(
    loadAuthConfig({ DATABASE_URL: `${TEST_DATABASE_SERVER}/${databaseName}`, DB_POOL_MAX: "2" }),
    log,
  );
});

afterAll(async () => {
  await orm?.close();
  await dropDatabase(databaseName);
});

describe("team directory", () => {
  it("loads every team at start and picks up other replicas' creations and rotations on refresh", async () => {
    const teams = new TeamService(orm, keyring);
    const before = await Promise.all(Array.from({ length: 3 }, (_, i) => teams.create({ name: `team ${i}` })));
    const directory = new TeamDirectory(orm, log);
    expect(await directory.loadAll()).toBe(3);
    for (const { team } of before) expect(directory.get(team.id)?.secretFingerprint).toBe(team.secretFingerprint);

    // Through "another replica": the directory has not seen these yet.
    const later = await teams.create({ name: "later" });
    const rotated = await teams.rotate(before[0]?.team.id as string, 600);
    expect(directory.get(later.team.id)).toBeUndefined();
    expect(await directory.refresh()).toBeGreaterThanOrEqual(2);
    expect(directory.get(later.team.id)?.secretFingerprint).toBe(later.team.secretFingerprint);
    const entry = directory.get(rotated.team.id);
    expect(entry?.secretFingerprint).toBe(rotated.team.secretFingerprint);
    expect(entry?.previousSecretFingerprint).toBe(before[0]?.team.secretFingerprint);
    expect(entry?.previousSecretValidUntil?.getTime()).toBe(rotated.previousValidUntil.getTime());

    // What it holds verifies with the database out of reach: keys read through a proxy that is cut.
    const proxy = await TcpProxy.start(hostPortOf(TEST_DATABASE_SERVER, 5432));
    const viaProxy = new URL(TEST_DATABASE_SERVER);
    viaProxy.hostname = "127.0.0.1";
    viaProxy.port = String(proxy.port);
    viaProxy.pathname = `/${databaseName}`;
    const cutOff = await openAuthDatabase(loadAuthConfig({ DATABASE_URL: viaProxy.toString(), DB_POOL_MAX: "1" }), log);
    const verifier = new TeamKeys(cutOff, keyring, log, 0, directory);
    await proxy.cut();
    const sign = (secret: string, body: string) => createHmac("sha256", secret).update(body).digest("hex");
    const body = Buffer.from('{"status":"up"}');
    const results = await verifier.verify([
      { teamId: later.team.id, payload: body, signature: sign(later.secret, body.toString()) },
      { teamId: rotated.team.id, payload: body, signature: sign(rotated.secret, body.toString()) },
      { teamId: rotated.team.id, payload: body, signature: sign(before[0]?.secret as string, body.toString()) },
      { teamId: later.team.id, payload: body, signature: sign(rotated.secret, body.toString()) },
    ]);
    expect(results.map((result) => result.outcome)).toEqual([
      "valid_current",
      "valid_current",
      "valid_previous",
      "invalid",
    ]);
    await cutOff.close().catch(() => undefined);
    await proxy.close();
  });

  it("pages a refresh through thousands of teams changed at the same instant, each once", async () => {
    const directory = new TeamDirectory(orm, log);
    const before = await directory.loadAll();
    // One statement: 12,000 teams with one updated_at, more than two refresh pages.
    await orm.em.getConnection().execute(
      `INSERT INTO auth.teams (id, name, alert_quota_monthly, heartbeat_quota_monthly, created_at, updated_at,
                               secret_fingerprint, secret_sealed, secret_rotated_at)
       SELECT 'team_bulk_' || lpad(n::text, 6, '0'), 'bulk ' || n, 0, 0, now(), now(), repeat('0', 64), '\\x01', now()
         FROM generate_series(1, 12000) AS n`,
    );
    // Also the few changed within the overlap before it (the other test's), read again.
    expect(await directory.refresh()).toBeGreaterThanOrEqual(12_000);
    expect(directory.size).toBe(before + 12_000);
    expect(directory.get("team_bulk_012000")?.secretFingerprint).toBe("0".repeat(64));
  });
});
