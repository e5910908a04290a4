#!/usr/bin/env node
// The `pulsegate` command. The CLI is TypeScript run as it is: a Node that strips
// types (≥ 22.18, the repo pins 24) imports it directly. An older node — the
// system's, when node_modules/.bin is not on PATH — hands over to the pinned
// Node found in a node_modules above this file, passing arguments, stdio,
// signals and the exit status through.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const main = fileURLToPath(new URL("../src/main.ts", import.meta.url));

function pinnedNode() {
  for (let dir = dirname(main); ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", "node", "bin", "node");
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

if (process.features.typescript) {
  await import(main);
} else {
  const node = pinnedNode();
  if (node === undefined) {
    process.stderr.write(
      `pulsegate: Node ${process.versions.node} cannot run TypeScript; use Node 22.18 or later (the repo pins 24: npx pulsegate).\n`,
    );
    process.exit(1);
  }
  const child = spawn(node, [main, ...process.argv.slice(2)], { stdio: "inherit" });
  // The child answers signals itself; this process only has to outlive it. A terminal's
  // Ctrl-C reaches the whole process group, the child included, so SIGINT is not sent twice.
  process.on("SIGINT", () => {});
  for (const signal of ["SIGTERM", "SIGHUP"]) {
    process.on(signal, () => child.kill(signal));
  }
  child.on("error", (error) => {
    process.stderr.write(`pulsegate: could not start ${node}: ${error.message}\n`);
    process.exit(1);
  });
  child.on("exit", (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    }
    process.exit(code ?? 1);
  });
}
