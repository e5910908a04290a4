// README.md is a tested document: its bash and js blocks run as pasted, in order, in one bash
// process under `set -euo pipefail`, against a fresh stack, with only the variables the README
// tells a reader to set; every command prints what its `# →` lines say (readme-blocks.ts).
import { afterAll, beforeAll, expect, it } from "vitest";
import { Receiver } from "../support/receiver.ts";
import { Stack } from "../support/stack.ts";
import { runReadme } from "./readme-run.ts";

let stack: Stack | undefined;
let slack: Receiver | undefined;

beforeAll(async () => {
  slack = await Receiver.start();
  stack = await Stack.create({
    databaseName: `pulsegate_readme_${process.pid}`,
    // A down ping's answer waits for its alert, which the next command lists: the default 750 ms
    // is plenty on a quiet machine, not on a loaded test runner.
    env: { INCIDENT_INLINE_WAIT_MS: "10000" },
  });
}, 60_000);

afterAll(async () => {
  await stack?.destroy();
  await slack?.close();
});

it("runs as pasted, top to bottom, and prints what it says", async () => {
  if (!stack || !slack) throw new Error("no stack");
  const differences = await runReadme({
    PG: stack.info.baseUrl,
    ADMIN_TOKEN: stack.info.adminToken,
    SLACK_WEBHOOK_URL: slack.url(),
  });
  expect(differences.join("\n\n")).toBe("");
  // The Slack channel the README creates was paged, at the URL the reader gave.
  expect(slack.requests.some((request) => request.method === "POST")).toBe(true);
}, 180_000);
