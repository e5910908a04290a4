import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";

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
  const [file, ...prefix] = options.command ?? [pinnedNode, cliLauncher];
  return new Promise((done, fail) => {
    const child = spawn(file as string, [...prefix, ...args], {
      cwd: root,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
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
}

/** The JSON a `--json` command printed on stdout. */
export function jsonOf<T = Record<string, unknown>>(result: CliResult): T {
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(`not JSON (exit ${result.code}):\n${result.stdout}\n${result.stderr}`);
  }
}
