#!/usr/bin/env node
// The `pulsegate` command. Installed from its package, it runs the compiled dist/main.js on any
// Node ≥ 20. In the repo (src/ beside this file, no build) it runs the TypeScript sources with the
// workspace packages' sources (the "@pulsegate/source" export condition): in this process when
// this Node strips types and already has the condition, else in a child — this Node, or the
// pinned Node 24 found in a node_modules above this file when this one is too old — passing
// arguments, stdio, signals and the exit status through.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const SOURCE_CONDITION = "@pulsegate/source";
const main = fileURLToPath(new URL("../src/main.ts", import.meta.url));

function pinnedNode() {
  for (let dir = dirname(main); ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", "node", "bin", "node");
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/** Whether this process resolves the workspace packages to their sources. */
function readsSources() {
  try {
    return import.meta.resolve("@pulsegate/sdk").endsWith(".ts");
  } catch {
    return false;
  }
}

if (!existsSync(main)) {
  await import("../dist/main.js");
} else if (process.features.typescript && readsSources()) {
  await import(main);
} else {
  const node = process.features.typescript ? process.execPath : pinnedNode();
  if (node === undefined) {
    process.stderr.write(
      `pulsegate: Node ${process.versions.node} cannot run TypeScript; use Node 22.18 or later (the repo pins 24: npx pulsegate).\n`,
    );
    process.exit(1);
  }
  const child = spawn(node, [`--conditions=${SOURCE_CONDITION}`, main, ...process.argv.slice(2)], { stdio: "inherit" });
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
