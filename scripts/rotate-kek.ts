// `npm run rotate-kek`: re-seals every sealed value — teams' HMAC states (auth) and channel
// credentials (alerts) — under the newest KEK, the first key of SECRET_KEK, and prints counts.
// Rotation (docs/secrets.md): SECRET_KEK="<new>,<old>" on every service and here; restart the
// services; run this; then drop <old> from SECRET_KEK and restart again. Safe to run twice, and
// while the services run: a value changed meanwhile was sealed under the newest KEK already.
import { createPgPool } from "@pulsegate/db";
import { createLogger } from "@pulsegate/runtime/logger";
import { parseKeyring } from "@pulsegate/sealing";
import { alertsKeyring, openAlertsDatabase } from "../services/alerts/src/app.ts";
import { loadAlertsConfig } from "../services/alerts/src/config.ts";
import { ChannelSealer } from "../services/alerts/src/notifications/channels/channel-credentials.ts";
import { resealChannels } from "../services/alerts/src/notifications/channels/reseal-channels.ts";
import { openAuthDatabase } from "../services/auth/src/app.ts";
import { loadAuthConfig } from "../services/auth/src/config.ts";
import { resealTeams } from "../services/auth/src/secrets/reseal-teams.ts";

const log = createLogger("rotate-kek", process.env.LOG_LEVEL ?? "warn");
const say = (line: string) => process.stdout.write(`${line}\n`);

const authConfig = loadAuthConfig();
const alertsConfig = loadAlertsConfig();
const authKeyring = parseKeyring(authConfig.SECRET_KEK, authConfig.SECRET_KEK_PREVIOUS, authConfig.NODE_ENV);
const channelSealer = new ChannelSealer(alertsKeyring(alertsConfig));
const kek = authKeyring.current.id;

const steps = [
  {
    what: "auth.teams (webhook secrets)",
    url: authConfig.databaseUrl,
    // Pending migrations first: a value is only re-sealed in the shape the services read.
    migrate: async () => (await openAuthDatabase(authConfig, log)).close(),
    reseal: (pool: ReturnType<typeof createPgPool>) => resealTeams(pool, authKeyring),
  },
  {
    what: "alerts.channels (channel credentials)",
    url: alertsConfig.databaseUrl,
    migrate: async () => (await openAlertsDatabase(alertsConfig, log)).close(),
    reseal: (pool: ReturnType<typeof createPgPool>) => resealChannels(pool, channelSealer),
  },
];

let failed = false;
for (const step of steps) {
  await step.migrate();
  const pool = createPgPool({ url: step.url, max: 2 });
  const started = performance.now();
  try {
    const counts = await step.reseal(pool);
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    say(`${step.what}: ${counts.resealed} re-sealed, ${counts.alreadyCurrent} already under KEK ${kek} (${seconds} s)`);
  } catch (error) {
    failed = true;
    // The error names the KEK id it missed, never key material.
    say(`${step.what}: stopped: ${(error as Error).message}`);
  } finally {
    await pool.end();
  }
}
if (failed) {
  say("Some values could not be opened: keep every old KEK in SECRET_KEK and run again.");
  process.exit(1);
}
say(
  `Every sealed value is under KEK ${kek}; older KEKs can be dropped from SECRET_KEK once every service restarted with this one first.`,
);
