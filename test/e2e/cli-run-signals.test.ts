// `pulsegate run` stopped by a signal at any moment ends with a down ping that names the signal,
// and exits 128 + N: a cron daemon or systemd that stops a job early must still leave a trace on
// the monitor. The start signal goes through a proxy that holds it, so the moment the signal
// arrives is known: before the start signal could be answered, and so before the command.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { spawnCli, untilCatching } from "../support/cli.ts";
import { Client } from "../support/client.ts";
import { HoldingProxy } from "../support/holding-proxy.ts";

const stack = inject("stack");
const client = new Client(stack);
let proxy: HoldingProxy;
const markers = mkdtempSync(join(tmpdir(), "pulsegate-run-"));

beforeAll(async () => {
  // Start signals are never answered; every other request reaches the gateway as sent.
  proxy = await HoldingProxy.start(stack.baseUrl, (request) => request.body.includes('"status":"start"'));
});
afterAll(async () => {
  await proxy.close();
  rmSync(markers, { recursive: true, force: true });
});

type PingRow = { status: string; reason: string | null };

/** A monitor, and `pulsegate run --start` on it (through the proxy) of a command that leaves a file. */
async function startRun() {
  const { secret, monitorId, pingUrl } = await client.setupMonitor();
  const marker = join(markers, `${monitorId}-ran`);
  const cli = spawnCli(["run", "--start", pingUrl, "--", "sh", "-c", `touch ${marker}`], {
    env: { PULSEGATE_URL: proxy.url, PULSEGATE_SECRET: secret },
  });
  return { ...cli, monitorId, marker };
}

async function expectStoppedBySigterm(run: Awaited<ReturnType<typeof startRun>>) {
  const result = await run.result;
  expect(result, result.stderr).toMatchObject({ code: 143, signal: null });
  const pings = (await client.admin("GET", `/monitors/${run.monitorId}/pings`)).body.pings as PingRow[];
  // The held start never reached the gateway; the down ping did, naming the signal.
  expect(pings).toEqual([expect.objectContaining({ status: "down", reason: "signal SIGTERM" })]);
  expect((await client.getMonitor(run.monitorId)).status).toBe("down");
  // The CLI has exited, so the command would have run by now: it never started.
  expect(existsSync(run.marker)).toBe(false);
}

describe("pulsegate run, stopped by a signal", () => {
  it("SIGTERM while the start signal is in flight: no command, a down ping `signal SIGTERM`, exit 143", async () => {
    const run = await startRun();
    await proxy.nextHeld();
    run.child.kill("SIGTERM");
    await expectStoppedBySigterm(run);
  });

  it("SIGTERM as soon as the CLI can catch one, before its start signal: the same", async () => {
    const run = await startRun();
    // Not at once after spawn: for its first tens of milliseconds Node itself has not run any of
    // the CLI, and dies by SIGTERM whatever the CLI would do. The CLI's first statement catches
    // SIGTERM, SIGINT and SIGHUP (main.ts); SIGHUP, which Node leaves alone, shows when.
    await untilCatching(run.child.pid as number, "SIGHUP");
    run.child.kill("SIGTERM");
    await expectStoppedBySigterm(run);
  });
});
