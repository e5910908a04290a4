import { type ChildProcessByStdio, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { constants } from "node:os";
import { resolve } from "node:path";
import type { Readable } from "node:stream";

const root = resolve(import.meta.dirname, "../..");
/** The pinned Node 24 (devDependency `node`), whatever node runs the tests. */
export const pinnedNode = existsSync(resolve(root, "node_modules/.bin/node"))
  ? resolve(root, "node_modules/.bin/node")
  : process.execPath;
/** The launcher npm links as node_modules/.bin/pulsegate. */
export const cliLauncher = resolve(root, "packages/cli/bin/pulsegate.mjs");

export type CliResult = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

/**
 * Runs `pulsegate args…` as its own process from the repo root and waits for it.
 * `env` is the whole environment besides PATH and HOME: nothing of the test's own
 * PULSEGATE_* leaks in. By default the pinned Node runs the launcher; `command`
 * runs something else (node_modules/.bin/pulsegate, say).
 */
export function runCli(
  args: string[],
  options: { env?: Record<string, string>; command?: string[]; timeoutMs?: number } = {},
): Promise<CliResult> {
  return spawnCli(args, options).result;
}

/** runCli without the wait: the process, for a test that signals it, and its result. */
export function spawnCli(
  args: string[],
  options: { env?: Record<string, string>; command?: string[]; timeoutMs?: number } = {},
): { child: ChildProcessByStdio<null, Readable, Readable>; result: Promise<CliResult> } {
  const [file, ...prefix] = options.command ?? [pinnedNode, "--conditions=@pulsegate/source", cliLauncher];
  const child = spawn(file as string, [...prefix, ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const result = new Promise<CliResult>((done, fail) => {
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      fail(new Error(`pulsegate ${args.join(" ")} did not finish in time:\n${stdout}\n${stderr}`));
    }, options.timeoutMs ?? 20_000);
    child.once("error", fail);
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      done({ code, signal, stdout, stderr });
    });
  });
  return { child, result };
}

/**
 * Resolves once process `pid` has a handler of its own for `signal` (Linux: SigCgt in
 * /proc/<pid>/status). Node catches SIGINT and SIGTERM itself while it starts, to die by them,
 * so only a signal Node leaves alone (SIGHUP) tells that the program's own handlers are in place.
 */
export async function untilCatching(pid: number, signal: NodeJS.Signals, timeoutMs = 15_000): Promise<void> {
  const bit = 1n << BigInt((constants.signals[signal] ?? 0) - 1);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await readFile(`/proc/${pid}/status`, "utf8");
    const caught = BigInt(`0x${/^SigCgt:\s*([0-9a-f]+)$/m.exec(status)?.[1] ?? "0"}`);
    if ((caught & bit) !== 0n) return;
    if (Date.now() > deadline) throw new Error(`process ${pid} did not catch ${signal} within ${timeoutMs} ms`);
    await new Promise((done) => setTimeout(done, 2));
  }
}

/** The JSON a `--json` command printed on stdout. */
export function jsonOf<T = Record<string, unknown>>(result: CliResult): T {
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(`not JSON (exit ${result.code}):\n${result.stdout}\n${result.stderr}`);
  }
}
