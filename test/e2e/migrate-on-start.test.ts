// MIGRATE_ON_START=false (production): a service changes no schema at start. Against a database
// its migrations have not reached, it listens but is not ready (grpc.health.v1 "" NOT_SERVING,
// "liveness" SERVING), says which migrations it lacks, and waits; once `npm run migrate` (the
// migrate Job) has applied them it serves, the same process, without a restart.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { LIVENESS_SERVICE } from "@pulsegate/grpc";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { migrations as alertsMigrations } from "../../services/alerts/src/migrations/index.ts";
import { migrations as authMigrations } from "../../services/auth/src/migrations/index.ts";
import { createHealthChecker, type HealthChecker } from "../../services/gateway/src/peers/check-grpc-health.ts";
import { migrations as monitorsMigrations } from "../../services/monitors/src/migrations/index.ts";
import { dropDatabase, recreateDatabase, TEST_DATABASE_SERVER } from "../support/database.ts";
import { eventually } from "../support/eventually.ts";
import { freePort } from "../support/free-port.ts";
import { ServiceProcess } from "../support/service-process.ts";

const root = resolve(import.meta.dirname, "../..");
const pinnedNode = resolve(root, "node_modules/.bin/node");
const databaseName = `pulsegate_migrate_on_start_${process.pid}`;
const databaseUrl = `${TEST_DATABASE_SERVER}/${databaseName}`;
const secretKek = randomBytes(32).toString("base64");
const services: ServiceProcess[] = [];
const checkers = new Map<string, HealthChecker>();

afterAll(async () => {
  for (const checker of checkers.values()) checker.close();
  await Promise.all(services.map((service) => service.kill()));
  await dropDatabase(databaseName);
});

describe("MIGRATE_ON_START=false", () => {
  it("waits, not ready, naming the missing migrations, until `npm run migrate` has run; then serves", async () => {
    await recreateDatabase(databaseName);
    const [auth, signing, alerts, monitors] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
    const common = {
      NODE_ENV: "test",
      LOG_LEVEL: "info",
      OTEL_SDK_DISABLED: "true",
      DATABASE_URL: databaseUrl,
      DB_POOL_MAX: "2",
      SECRET_KEK: secretKek,
      MIGRATE_ON_START: "false",
    };
    const started = [
      {
        name: "auth",
        first: authMigrations[0]?.name,
        listeners: [`127.0.0.1:${auth}`, `127.0.0.1:${signing}`],
        process: ServiceProcess.start("auth", {
          ...common,
          GRPC_LISTEN_ADDR: `127.0.0.1:${auth}`,
          SIGNING_GRPC_LISTEN_ADDR: `127.0.0.1:${signing}`,
        }),
      },
      {
        name: "alerts",
        first: alertsMigrations[0]?.name,
        listeners: [`127.0.0.1:${alerts}`],
        process: ServiceProcess.start("alerts", {
          ...common,
          GRPC_LISTEN_ADDR: `127.0.0.1:${alerts}`,
          AUTH_SIGNING_GRPC_ADDR: `127.0.0.1:${signing}`,
        }),
      },
      {
        name: "monitors",
        first: monitorsMigrations[0]?.name,
        listeners: [`127.0.0.1:${monitors}`],
        process: ServiceProcess.start("monitors", {
          ...common,
          GRPC_LISTEN_ADDR: `127.0.0.1:${monitors}`,
          ALERTS_GRPC_ADDR: `127.0.0.1:${alerts}`,
          REDIS_URL: "",
        }),
      },
    ];
    services.push(...started.map((service) => service.process));
    /** One grpc.health.v1 client per listener, as a kubelet probe asks it. */
    const health = (address: string) => {
      const checker = checkers.get(address) ?? createHealthChecker(address, 2_000);
      checkers.set(address, checker);
      return checker;
    };

    for (const service of started) {
      const line = await service.process.waitFor(/lacks migrations this release needs/);
      // Every migration of the service is named (none is applied yet), the first among them.
      expect(JSON.parse(line)).toMatchObject({ level: 40, missing: expect.arrayContaining([service.first]) });
      for (const address of service.listeners) {
        const checker = health(address);
        expect(await checker.check(LIVENESS_SERVICE, 2_000), `${service.name} at ${address} is alive`).toBe(true);
        expect(await checker.check("", 2_000), `${service.name} at ${address} is not ready`).toBe(false);
      }
    }
    // Waiting changed nothing: no schema was made.
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const schemas = await db.query("SELECT nspname FROM pg_namespace WHERE nspname IN ('auth', 'alerts', 'monitors')");
    await db.end();
    expect(schemas.rows).toEqual([]);

    // The Job reads the same configuration (MIGRATE_ON_START=false included) and migrates anyway.
    await promisify(execFile)(
      existsSync(pinnedNode) ? pinnedNode : process.execPath,
      ["--conditions=@pulsegate/source", "scripts/migrate.ts"],
      {
        cwd: root,
        env: { PATH: process.env.PATH, ...common },
      },
    );

    for (const service of started) {
      for (const address of service.listeners) {
        await eventually(async () => ((await health(address).check("", 2_000)) ? true : undefined), {
          timeoutMs: 20_000,
          intervalMs: 200,
          what: `${service.name} at ${address} ready`,
        });
      }
      await service.process.waitFor(/has every migration this release needs/);
      await service.process.waitFor(new RegExp(`"${service.name} listening"`));
      expect(service.process.running).toBe(true);
      expect(service.process.output).not.toContain("migrations applied");
    }
  });
});
