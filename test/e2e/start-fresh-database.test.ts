// On a machine without the `pulsegate` database, `npm start`
// crashed about one start in six: the four services raced to CREATE DATABASE
// and the loser got 23505 on pg_database_datname_index. The start script now
// creates it once before the services start, and ensureDatabase (which the
// services still call, as on Kubernetes) takes turns under an advisory lock.
import { ensureDatabase } from "@pulsegate/db";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { dropDatabase, TEST_DATABASE_SERVER } from "../support/database.ts";
import { StartProcess } from "./start-process.ts";

const databaseName = `pulsegate_start_fresh_${process.pid}`;
const databaseUrl = `${TEST_DATABASE_SERVER}/${databaseName}`;
let current: StartProcess | undefined;

afterAll(async () => {
  if (current?.running) await current.stop("SIGINT").catch(() => current?.kill());
  await dropDatabase(databaseName);
});

async function databaseExists(): Promise<boolean> {
  const admin = new pg.Client({ connectionString: `${TEST_DATABASE_SERVER}/postgres` });
  await admin.connect();
  try {
    return (await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [databaseName])).rowCount === 1;
  } finally {
    await admin.end();
  }
}

describe("starting from a database that does not exist", () => {
  it("ensureDatabase: eight concurrent callers all succeed, five times over", async () => {
    for (let round = 0; round < 5; round++) {
      expect(await dropDatabase(databaseName)).toBe(true);
      const outcomes = await Promise.allSettled(Array.from({ length: 8 }, () => ensureDatabase(databaseUrl)));
      expect(outcomes.filter((outcome) => outcome.status === "rejected")).toEqual([]);
      expect(await databaseExists()).toBe(true);
    }
  });

  // The race itself is the test above (eight callers, five rounds); these starts show npm start
  // creates the database once and every service comes up on it. Three, not ten: each costs ~13 s.
  it("npm start reaches ready and stops cleanly, three starts in a row from a dropped database", async () => {
    const durations: number[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      expect(await dropDatabase(databaseName)).toBe(true);
      const started = Date.now();
      current = await StartProcess.spawn({
        env: {
          DATABASE_URL: databaseUrl,
          REDIS_URL: process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379",
        },
      });
      await current.waitReady(60_000);
      const exit = await current.stop("SIGINT", 30_000);
      durations.push(Date.now() - started);
      expect({ attempt, ...exit }).toEqual({ attempt, code: 0, signal: null });
      expect(current.output()).not.toMatch(/stopped uncleanly|exited \(/);
    }
    console.info(`three starts and stops: ${durations.map((ms) => (ms / 1000).toFixed(1)).join(" s, ")} s`);
  }, 300_000);
});
