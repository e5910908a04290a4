import { writeFileSync } from "node:fs";
import type { TestProject } from "vitest/node";
import { Stack, type StackInfo } from "./stack.ts";

declare module "vitest" {
  export interface ProvidedContext {
    stack: StackInfo;
  }
}

/**
 * The stack and how many projects use it. Two projects share it (vitest.config.ts: e2e-idle runs
 * first, on the stack before any test has used it, then e2e); vitest sets up each project's global
 * setup in this one process, so the first to come starts the stack and the last to leave stops it.
 */
type Shared = { stack: Promise<Stack>; users: number };
const SHARED = Symbol.for("pulsegate.e2e.stack");
const holder = globalThis as { [SHARED]?: Shared };

/** Starts the shared stack once for the e2e projects; tests reach it over HTTP and gRPC. */
export default async function setup(project: TestProject) {
  holder[SHARED] ??= {
    stack: Stack.create({ databaseName: `pulsegate_e2e_${process.pid}`, metrics: true }),
    users: 0,
  };
  const shared = holder[SHARED];
  shared.users += 1;
  const stack = await shared.stack;
  project.provide("stack", stack.info);
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    delete holder[SHARED];
    await stack.destroy();
    const output = stack.output();
    if (process.env.E2E_LOG_FILE) writeFileSync(process.env.E2E_LOG_FILE, output);
  };
}
