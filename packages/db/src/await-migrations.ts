import type { Logger } from "@pulsegate/runtime/logger";
import { pendingMigrations } from "./pending-migrations.ts";

export type AwaitMigrationsOptions = {
  url: string;
  schema: string;
  /** The service's committed migrations, in order. */
  names: string[];
  /** How often the schema is looked at again while migrations are missing (default 2 s). */
  retryMs?: number;
  /** While still waiting, the missing ones are logged again this often (default 60 s). */
  remindMs?: number;
};

/**
 * Resolves once every migration of `names` is applied, looking again every `retryMs` while some
 * are missing or the database cannot be read; never migrates. For a service started with
 * MIGRATE_ON_START=false: the migrate Job changes the schema, the service waits for it (not
 * ready, but alive) rather than exiting, so it serves as soon as the Job is done, without a
 * restart and without the back-off a crash loop earns.
 */
export async function awaitMigrations(options: AwaitMigrationsOptions, log: Logger): Promise<void> {
  const { url, schema, names, retryMs = 2_000, remindMs = 60_000 } = options;
  let said = "";
  let saidAt = 0;
  let waited = false;
  for (;;) {
    let line: { fields: object; message: string };
    try {
      const missing = await pendingMigrations(url, schema, names);
      if (missing.length === 0) break;
      line = {
        fields: { schema, missing },
        message:
          "database schema lacks migrations this release needs: not ready until they are applied (MIGRATE_ON_START=false: run `npm run migrate`, the migrate Job)",
      };
    } catch (error) {
      line = { fields: { schema, err: error }, message: "cannot read the database schema's migrations: trying again" };
    }
    // Once per change, and again every `remindMs` while it lasts.
    const key = JSON.stringify(line.fields, (name, value) => (name === "err" ? String(value) : value));
    if (key !== said || Date.now() - saidAt >= remindMs) {
      log.warn(line.fields, line.message);
      said = key;
      saidAt = Date.now();
    }
    waited = true;
    await new Promise((done) => setTimeout(done, retryMs));
  }
  if (waited) log.info({ schema }, "database schema has every migration this release needs: starting");
}
