// `npm start` keeps its development admin token in the data folder: a restart has the same one, so
// a dashboard session, a shell's ADMIN_TOKEN and the CLI keep working (the cases of the file itself
// and of ADMIN_TOKEN in the environment: scripts/lib/admin-token.test.ts). Its root leads to the
// dashboard.
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { signedIn, signIn } from "../support/dashboard-session.ts";
import { dropDatabase, TEST_DATABASE_SERVER } from "../support/database.ts";
import { StartProcess } from "./start-process.ts";

const databaseName = `pulsegate_start_token_${process.pid}`;
let start: StartProcess | undefined;
const dataDir = mkdtempSync(join(tmpdir(), "pulsegate-token-"));

afterAll(async () => {
  if (start?.running) await start.stop("SIGINT", 30_000).catch(() => start?.kill());
  await dropDatabase(databaseName);
  rmSync(dataDir, { recursive: true, force: true });
});

describe("npm start's development admin token", () => {
  it("is kept in the data folder (0600) and is the same after a restart, with its sessions", async () => {
    const env = {
      PULSEGATE_DATA_DIR: dataDir,
      DATABASE_URL: `${TEST_DATABASE_SERVER}/${databaseName}`,
      REDIS_URL: process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379",
      // Dashboard sessions live in Redis, under this prefix: the same for both starts, as on a laptop.
      REDIS_KEY_PREFIX: `pulsegate-test:${databaseName}`,
    };
    const file = join(dataDir, "admin-token");

    start = await StartProcess.spawn({ env });
    const token = await start.waitReady(150_000);
    expect(start.output()).toContain(
      `admin token (development): ${token} (new; kept in ${file}, so the next start has it too)`,
    );
    expect(readFileSync(file, "utf8")).toBe(`${token}\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const root = await fetch(`${start.baseUrl}/`, { redirect: "manual" });
    expect([root.status, root.headers.get("location")]).toEqual([302, "/dashboard"]);
    const session = await signIn(start.baseUrl, token);
    expect(session.status).toBe(303);
    expect(await signedIn(start.baseUrl, session.sessionId)).toBe(true);
    expect(await start.stop("SIGINT", 60_000)).toEqual({ code: 0, signal: null });

    start = await StartProcess.spawn({ env });
    expect(await start.waitReady(150_000)).toBe(token);
    expect(start.output()).toContain(`admin token (development): ${token} (kept in ${file} since an earlier start)`);
    const teams = await fetch(`${start.baseUrl}/admin/v1/teams`, { headers: { authorization: `Bearer ${token}` } });
    expect(teams.status).toBe(200);
    expect(await signedIn(start.baseUrl, session.sessionId)).toBe(true);
    expect(await start.stop("SIGINT", 60_000)).toEqual({ code: 0, signal: null });
  }, 400_000);
});
