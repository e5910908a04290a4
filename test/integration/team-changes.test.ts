// A change to a team's keys made through one auth replica is announced by PostgreSQL
// (NOTIFY on auth_team_changed, migration 0007) and every replica drops and reloads that team at
// once, instead of verifying with what it cached; a listener that lost its connection listens again
// and catches up on what it missed.
import { createHmac, randomBytes } from "node:crypto";
import type { Orm } from "@pulsegate/db";
import { createLogger } from "@pulsegate/runtime/logger";
import { parseKeyring } from "@pulsegate/sealing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAuthDatabase } from "../../services/auth/src/app.ts";
import { loadAuthConfig } from "../../services/auth/src/config.ts";
import { followTeamChanges, TEAM_CHANGES_CHANNEL } from "../../services/auth/src/teams/team-changes.ts";
import { TeamDirectory } from "../../services/auth/src/teams/team-directory.ts";
import { TeamKeys } from "../../services/auth/src/teams/team-keys.ts";
import { TeamService } from "../../services/auth/src/teams/team-service.ts";
import { dropDatabase, recreateDatabase, TEST_DATABASE_SERVER } from "../support/database.ts";
import { eventually } from "../support/eventually.ts";
import { hostPortOf, TcpProxy } from "../support/tcp-proxy.ts";

const databaseName = `pulsegate_it_team_changes_${process.pid}`;
const databaseUrl = `${TEST_DATABASE_SERVER}/${databaseName}`;
const log = createLogger("test", "silent");
const keyring = parseKeyring(randomBytes(32).toString("base64"), undefined, "test");
/** Longer than any test: whatever a replica learns, it learns from the announcement. */
const CACHE_FOREVER_MS = 60_000;
let orm: Orm;
let teams: TeamService;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  await recreateDatabase(databaseName);
  orm = await openAuthDatabase(loadAuthConfig({ DATABASE_URL: databaseUrl, DB_POOL_MAX: "4" }), log);
  teams = new TeamService(orm, keyring);
});

afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await orm?.close();
  await dropDatabase(databaseName);
});

const body = Buffer.from('{"status":"up"}');
const signed = (secret: string) => createHmac("sha256", secret).update(body).digest("hex");

/** Another auth replica: its own keys and directory, following announcements through `listenUrl`. */
async function replica(listenUrl = databaseUrl) {
  const directory = new TeamDirectory(orm, log);
  await directory.loadAll();
  const keys = new TeamKeys(orm, keyring, log, CACHE_FOREVER_MS, directory);
  const listener = followTeamChanges(listenUrl, keys, directory, log);
  closers.push(() => listener.close());
  // From here on, only an announcement can make it read a team again (its cache outlives the test).
  await listener.listening;
  const outcome = async (teamId: string, secret: string) =>
    (await keys.verify([{ teamId, payload: body, signature: signed(secret) }]))[0]?.outcome;
  return { directory, keys, outcome };
}

/** A connection of the test's own listening on the channel: what was announced, in order. */
async function announcements(): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  closers.push(() => client.end());
  const heard: string[] = [];
  client.on("notification", (message) => heard.push(message.payload ?? ""));
  await client.query(`LISTEN ${TEAM_CHANGES_CHANNEL}`);
  return heard;
}

describe("team changes announced to every auth replica", () => {
  it("a rotation with no grace through another replica holds here at once: old refused, new accepted", async () => {
    const { team, secret: oldSecret } = await teams.create({ name: "rotating" });
    const here = await replica();
    expect(await here.outcome(team.id, oldSecret)).toBe("valid_current");

    const rotated = await teams.rotate(team.id, 0);
    await eventually(async () => ((await here.outcome(team.id, oldSecret)) === "invalid" ? true : undefined), {
      timeoutMs: 2_000,
      intervalMs: 10,
      what: "the old secret refused",
    });
    expect(await here.outcome(team.id, rotated.secret)).toBe("valid_current");
    // The sealed directory has it too, without waiting for a refresh.
    expect(here.directory.get(team.id)?.secretFingerprint).toBe(rotated.team.secretFingerprint);
  });

  it("announces what verification reads (secret, subscription, quotas), not last-used writes or a rename", async () => {
    const heard = await announcements();
    const { team } = await teams.create({ name: "quiet" });
    await orm.em
      .getConnection()
      .execute("UPDATE auth.teams SET current_secret_last_used_at = now() WHERE id = ?", [team.id]);
    await teams.update(team.id, { name: "renamed" });
    await teams.update(team.id, { alertQuotaMonthly: 5 });
    await teams.update(team.id, { subscriptionExpiresAt: new Date(Date.now() - 1_000) });
    await teams.rotate(team.id, 60);
    // Notifications arrive in commit order: once the rotation's is here, nothing earlier is missing.
    await eventually(async () => (heard.length >= 3 ? true : undefined), { timeoutMs: 2_000, intervalMs: 10 });
    await new Promise((done) => setTimeout(done, 100));
    expect(heard).toEqual([team.id, team.id, team.id]);
  });

  it("a subscription that ends through another replica is felt here at once", async () => {
    const { team, secret } = await teams.create({ name: "expiring" });
    const here = await replica();
    const access = async () => {
      const [result] = await here.keys.verify([{ teamId: team.id, payload: body, signature: signed(secret) }]);
      return result && "access" in result ? result.access.subscriptionActive : undefined;
    };
    expect(await access()).toBe(true);
    await teams.update(team.id, { subscriptionExpiresAt: new Date(Date.now() - 1_000) });
    await eventually(async () => ((await access()) === false ? true : undefined), { timeoutMs: 2_000, intervalMs: 10 });
  });

  it("a listener that lost its connection listens again and catches up on what it missed meanwhile", async () => {
    const proxy = await TcpProxy.start(hostPortOf(TEST_DATABASE_SERVER, 5432));
    closers.push(() => proxy.close());
    const viaProxy = new URL(databaseUrl);
    viaProxy.hostname = "127.0.0.1";
    viaProxy.port = String(proxy.port);
    const { team, secret: first } = await teams.create({ name: "missed" });
    const here = await replica(viaProxy.toString());
    expect(await here.outcome(team.id, first)).toBe("valid_current");

    // The listener's connection drops; the rotation's announcement reaches nobody here.
    await proxy.cut();
    const second = await teams.rotate(team.id, 0);
    expect(await here.outcome(team.id, first)).toBe("valid_current"); // still cached, as before this change
    await proxy.restore();
    // Back (after a 1 s back-off): everything it had opened is dropped and read again.
    await eventually(async () => ((await here.outcome(team.id, first)) === "invalid" ? true : undefined), {
      timeoutMs: 5_000,
      intervalMs: 20,
      what: "the missed rotation caught up",
    });
    expect(here.directory.get(team.id)?.secretFingerprint).toBe(second.team.secretFingerprint);

    // And it hears the next announcement at once.
    const third = await teams.rotate(team.id, 0);
    await eventually(async () => ((await here.outcome(team.id, second.secret)) === "invalid" ? true : undefined), {
      timeoutMs: 2_000,
      intervalMs: 10,
      what: "the next rotation",
    });
    expect(await here.outcome(team.id, third.secret)).toBe("valid_current");
  });
});
