// `npm run migrate`: applies every service's pending migrations and exits
// (the Kubernetes migrate Job), whatever MIGRATE_ON_START says: that setting
// is the services'. Services started with MIGRATE_ON_START=true (the
// default) also migrate at start, under the same advisory lock, so running
// both is safe; with false they wait, not ready, until this has run.
import { createLogger } from "@pulsegate/runtime/logger";
import { openAlertsDatabase } from "../services/alerts/src/app.ts";
import { loadAlertsConfig } from "../services/alerts/src/config.ts";
import { openAuthDatabase } from "../services/auth/src/app.ts";
import { loadAuthConfig } from "../services/auth/src/config.ts";
import { openMonitorsDatabase } from "../services/monitors/src/app.ts";
import { loadMonitorsConfig } from "../services/monitors/src/config.ts";

const log = createLogger("migrate", "info");
const steps = [
  { name: "auth", open: () => openAuthDatabase(loadAuthConfig(), log) },
  { name: "alerts", open: () => openAlertsDatabase(loadAlertsConfig(), log) },
  { name: "monitors", open: () => openMonitorsDatabase(loadMonitorsConfig(), log) },
];
for (const step of steps) {
  const orm = await step.open();
  await orm.close();
  log.info({ schema: step.name }, "schema up to date");
}
