// The memory auth's team directory takes for 100,000 teams (every team's sealed
// keys, held so signatures verify while PostgreSQL is away), and the time `npm run rotate-kek`
// takes to re-seal 10,000 channels' credentials. Run with `node -C @pulsegate/source --expose-gc bench/secrets-at-scale.ts`.
//
// BENCH_TEAMS and BENCH_CHANNELS change the counts; the channels go into a database of their own on
// the test server (TEST_DATABASE_SERVER), dropped at the end.
import { randomBytes } from "node:crypto";
import { createPgPool, type Orm } from "@pulsegate/db";
import { createLogger } from "@pulsegate/runtime/logger";
import { parseKeyring } from "@pulsegate/sealing";
import { openAlertsDatabase } from "../services/alerts/src/app.ts";
import { loadAlertsConfig } from "../services/alerts/src/config.ts";
import { ChannelSealer } from "../services/alerts/src/notifications/channels/channel-credentials.ts";
import { maskUrl } from "../services/alerts/src/notifications/channels/mask-url.ts";
import { resealChannels } from "../services/alerts/src/notifications/channels/reseal-channels.ts";
import { openAuthDatabase } from "../services/auth/src/app.ts";
import { loadAuthConfig } from "../services/auth/src/config.ts";
import {
  deriveHmacStates,
  generateSecret,
  openStates,
  sealingContext,
  sealStates,
} from "../services/auth/src/secrets/index.ts";
import { resealTeams } from "../services/auth/src/secrets/reseal-teams.ts";
import { TeamDirectory } from "../services/auth/src/teams/team-directory.ts";
import { dropDatabase, recreateDatabase, TEST_DATABASE_SERVER } from "../test/support/database.ts";

const TEAMS = Number(process.env.BENCH_TEAMS ?? 100_000);
const CHANNELS = Number(process.env.BENCH_CHANNELS ?? 10_000);
const log = createLogger("bench", "silent");
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with node -C @pulsegate/source --expose-gc");

function used(): number {
  gc?.();
  gc?.();
  const memory = process.memoryUsage();
  return memory.heapUsed + memory.arrayBuffers;
}

// 1. The directory: what auth holds per team (access fields, fingerprints, sealed states), half
//    the teams with a previous secret still in its grace window, as after a rotation.
const OLD_TEXT = randomBytes(32).toString("base64");
const OLD = parseKeyring(OLD_TEXT, undefined, "test");
const NEW = randomBytes(32).toString("base64");
const blobs = Array.from({ length: 2 * TEAMS }, (_, i) => {
  const { secret, fingerprint } = generateSecret();
  const id = `team_${randomBytes(16).toString("hex")}`;
  return { id, fingerprint, sealed: sealStates(deriveHmacStates(secret), OLD, sealingContext(id, fingerprint)), i };
});
// For comparison: the same teams' keys opened (two resumable SHA-256 states each), as the
// per-team cache holds them for VERIFIER_CACHE_MS.
const sample = Math.min(TEAMS, 20_000);
const openedBefore = used();
const opened = [];
for (let i = 0; i < sample; i++) {
  const current = blobs[2 * i] as (typeof blobs)[number];
  opened.push(openStates(current.sealed, OLD, sealingContext(current.id, current.fingerprint)));
}
const openedAfter = used();
process.stdout.write(
  `opened keys, for comparison: ${((openedAfter - openedBefore) / opened.length).toFixed(0)} bytes a team (${opened.length} opened)\n`,
);
opened.length = 0;
const before = used();
const directory = new TeamDirectory({} as Orm, log);
for (let i = 0; i < TEAMS; i++) {
  const current = blobs[2 * i] as (typeof blobs)[number];
  const previous = i % 2 === 0 ? (blobs[2 * i + 1] as (typeof blobs)[number]) : null;
  directory.put({
    id: current.id,
    subscriptionExpiresAt: i % 3 === 0 ? new Date(Date.now() + 86_400_000) : null,
    alertQuotaMonthly: 10_000,
    heartbeatQuotaMonthly: 100_000,
    secretFingerprint: current.fingerprint,
    secretSealed: current.sealed,
    previousSecretFingerprint: previous?.fingerprint ?? null,
    previousSecretSealed: previous?.sealed ?? null,
    previousSecretValidUntil: previous ? new Date(Date.now() + 86_400_000) : null,
  });
}
const after = used();
const perTeam = (after - before) / TEAMS;
process.stdout.write(
  `team directory: ${directory.size} teams (half with a previous secret) take ${((after - before) / 1024 / 1024).toFixed(1)} MiB, ${perTeam.toFixed(0)} bytes a team\n`,
);
blobs.length = 0;

// 2. Re-sealing channel credentials.
const databaseName = `pulsegate_bench_reseal_${process.pid}`;
await recreateDatabase(databaseName);
const url = `${TEST_DATABASE_SERVER}/${databaseName}`;
const oldKek = randomBytes(32).toString("base64");
const config = loadAlertsConfig({ DATABASE_URL: url, SECRET_KEK: oldKek, NODE_ENV: "test" });
const orm = await openAlertsDatabase(config, log);
await orm.close();
const pool = createPgPool({ url, max: 2 });
try {
  const sealer = new ChannelSealer(parseKeyring(oldKek, undefined, "test"));
  const rows = Array.from({ length: CHANNELS }, (_, i) => {
    const id = `ch_${String(i).padStart(8, "0")}${randomBytes(8).toString("hex")}`;
    const channelUrl = `https://hooks.slack.com/services/T${i}/B${i}/${randomBytes(12).toString("hex")}`;
    return { id, sealed: sealer.seal(id, { url: channelUrl }).toString("hex"), masked: maskUrl(channelUrl) };
  });
  for (let at = 0; at < rows.length; at += 1_000) {
    await pool.query(
      `INSERT INTO alerts.channels (id, team_id, kind, name, credentials_sealed, masked_url, enabled, created_at, updated_at)
       SELECT v.id, 'team_bench', 'slack', v.id, decode(v.sealed, 'hex'), v.masked, true, now(), now()
         FROM jsonb_to_recordset($1::jsonb) AS v(id text, sealed text, masked text)`,
      [JSON.stringify(rows.slice(at, at + 1_000))],
    );
  }
  const rotating = new ChannelSealer(parseKeyring(`${NEW},${oldKek}`, undefined, "test"));
  const started = performance.now();
  const counts = await resealChannels(pool, rotating);
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(
    `re-seal: ${counts.resealed} channels under the new KEK in ${seconds.toFixed(2)} s (${((seconds * 1e6) / CHANNELS).toFixed(0)} µs a channel)\n`,
  );

  // The same for teams' webhook secrets (auth), as many teams as channels.
  const authOrm = await openAuthDatabase(loadAuthConfig({ DATABASE_URL: url, NODE_ENV: "test" }), log);
  const teamRows = Array.from({ length: CHANNELS }, (_, i) => {
    const { secret, fingerprint } = generateSecret();
    const id = `team_${String(i).padStart(8, "0")}${randomBytes(8).toString("hex")}`;
    return {
      id,
      fingerprint,
      sealed: sealStates(deriveHmacStates(secret), OLD, sealingContext(id, fingerprint)).toString("hex"),
    };
  });
  for (let at = 0; at < teamRows.length; at += 1_000) {
    await pool.query(
      `INSERT INTO auth.teams (id, name, alert_quota_monthly, heartbeat_quota_monthly, created_at, updated_at,
                               secret_fingerprint, secret_sealed, secret_rotated_at)
       SELECT v.id, v.id, 0, 0, now(), now(), v.fingerprint, decode(v.sealed, 'hex'), now()
         FROM jsonb_to_recordset($1::jsonb) AS v(id text, fingerprint text, sealed text)`,
      [JSON.stringify(teamRows.slice(at, at + 1_000))],
    );
  }
  const teamsStarted = performance.now();
  const teamCounts = await resealTeams(pool, parseKeyring(`${NEW},${OLD_TEXT}`, undefined, "test"));
  const teamSeconds = (performance.now() - teamsStarted) / 1000;
  process.stdout.write(`re-seal: ${teamCounts.resealed} teams under the new KEK in ${teamSeconds.toFixed(2)} s\n`);

  // What auth's start adds: loading every team into the directory (TEAMS in all).
  await pool.query(
    `INSERT INTO auth.teams (id, name, alert_quota_monthly, heartbeat_quota_monthly, created_at, updated_at,
                             secret_fingerprint, secret_sealed, secret_rotated_at)
     SELECT 'team_filler_' || n, 'filler', 0, 0, now(), now(), t.secret_fingerprint, t.secret_sealed, now()
       FROM generate_series(1, $1::int) AS n, (SELECT * FROM auth.teams LIMIT 1) AS t`,
    [Math.max(0, TEAMS - CHANNELS)],
  );
  const loadStarted = performance.now();
  const loaded = await new TeamDirectory(authOrm, log).loadAll();
  process.stdout.write(
    `auth start: the team directory loads ${loaded} teams in ${((performance.now() - loadStarted) / 1000).toFixed(2)} s\n`,
  );
  await authOrm.close();
} finally {
  await pool.end();
  await dropDatabase(databaseName);
}
