import { writeFileSync } from "node:fs";
import type { TestProject } from "vitest/node";
import { Stack, type StackInfo } from "./stack.ts";

declare module "vitest" {
  export interface ProvidedContext {
    stack: StackInfo;
  }
}

/** Starts the shared stack once for the e2e project; tests reach it over HTTP and gRPC. */
export default async function setup(project: TestProject) {
  const stack = await Stack.create({ databaseName: `pulsegate_e2e_${process.pid}` });
  project.provide("stack", stack.info);
  return async () => {
    await stack.destroy();
    const output = stack.output();
    if (process.env.E2E_LOG_FILE) writeFileSync(process.env.E2E_LOG_FILE, output);
  };
}
