import { configDefaults, defineConfig } from "vitest/config";

/** Files that need the shared stack idle: nothing else may run against it meanwhile. */
const IDLE_STACK = ["test/e2e/prometheus.test.ts"];

/**
 * The workspace packages published with a dist/ (sdk, cli) are read from their sources, as Node's
 * --conditions=@pulsegate/source reads them for the services; then vitest's own server conditions
 * (vite's without "module", whose builds are often not Node's ESM).
 */
const conditions = ["@pulsegate/source", "node", "development|production"];
const sources = { resolve: { conditions }, ssr: { resolve: { conditions } } };

export default defineConfig({
  test: {
    projects: [
      {
        ...sources,
        test: {
          name: "e2e-idle",
          include: IDLE_STACK,
          // The same stack as e2e's (the global setup shares it), before any test has used it:
          // an alert must not fire on a healthy idle stack, and e2e's tests leave work behind
          // (reminders, retried deliveries) that is no fault of the stack.
          globalSetup: ["test/support/global-setup.ts"],
          sequence: { groupOrder: 0 },
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Not 1: vitest runs a group-0 project of one worker after all the others.
          maxWorkers: 2,
        },
      },
      {
        ...sources,
        test: {
          name: "unit",
          include: ["packages/*/src/**/*.test.ts", "services/*/src/**/*.test.ts", "scripts/**/*.test.ts"],
          // Last, as vitest ran it before projects had an order (a one-worker project of group 0
          // runs after the others); a group of its own, as its workers are not e2e's.
          sequence: { groupOrder: 2 },
        },
      },
      {
        ...sources,
        test: {
          name: "e2e",
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...IDLE_STACK],
          // One stack of real services (separate processes) for the whole run.
          globalSetup: ["test/support/global-setup.ts"],
          sequence: { groupOrder: 1 },
          testTimeout: 30_000,
          hookTimeout: 60_000,
          maxWorkers: 2,
        },
      },
    ],
  },
});
