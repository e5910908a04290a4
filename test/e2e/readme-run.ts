// README.md run against a stack: what the test does, and what `node test/e2e/readme-run.ts` does
// against a stack already running (PG and ADMIN_TOKEN set), to try a change to the README quickly.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { Receiver } from "../support/receiver.ts";
import { type Block, fencedBlocks, RUN_LANGUAGES, SHOWN_LANGUAGES } from "./readme-blocks.ts";
import { differences, readmeScript, runScript } from "./readme-script.ts";

const root = resolve(import.meta.dirname, "../..");

/**
 * The blocks that do not run, each for a reason the README cannot avoid; a new one needs a name
 * here (and a reason) before the test accepts it.
 */
export const NOT_RUN: Record<string, string> = {
  start: "`npm install && npm start`: the test starts the stack itself",
  connect: "the variables a reader copies from the banner: the test sets them to its own stack",
  develop: "the repository's own npm scripts (lint, bench, images): each has its own check",
};

/** What is wrong with the README's fences before anything runs: an unknown language or no-run name. */
export function fenceProblems(blocks: Block[]): string[] {
  return blocks.flatMap((block) => {
    if (block.noRun !== undefined && !(block.noRun in NOT_RUN)) {
      return [`README.md line ${block.line}: no-run=${block.noRun} is not one of ${Object.keys(NOT_RUN).join(", ")}`];
    }
    if (!RUN_LANGUAGES.has(block.language) && !SHOWN_LANGUAGES.has(block.language)) {
      return [`README.md line ${block.line}: a \`\`\`${block.language} block is neither run nor known as shown-only`];
    }
    return [];
  });
}

/** The variables a reader sets by hand (the `connect` block exports them); the test sets them too. */
export type ReaderVariables = { PG: string; ADMIN_TOKEN: string; SLACK_WEBHOOK_URL: string };

/** Runs README.md's runnable blocks in order; the differences found (none: it ran as written). */
export function runReadme(variables: ReaderVariables, timeoutMs?: number): Promise<string[]> {
  return runMarkdown(readFileSync(join(root, "README.md"), "utf8"), variables, timeoutMs);
}

/** Runs the runnable blocks of a Markdown text in order, in the repository's folder, as README.md's. */
export async function runMarkdown(
  markdown: string,
  variables: Partial<ReaderVariables>,
  timeoutMs = 150_000,
): Promise<string[]> {
  const blocks = fencedBlocks(markdown);
  const problems = fenceProblems(blocks);
  if (problems.length > 0) return problems;
  const dir = mkdtempSync(join(tmpdir(), "pulsegate-readme-"));
  try {
    const script = readmeScript(
      blocks.filter((block) => RUN_LANGUAGES.has(block.language) && block.noRun === undefined),
      dir,
    );
    // As a reader's shell: only what the README says to set, the PATH without the repository's
    // node_modules/.bin (npm scripts add it; a terminal does not), and a HOME of its own (no ~/.curlrc).
    const path = (process.env.PATH ?? "")
      .split(delimiter)
      .filter((entry) => !entry.includes("node_modules"))
      .join(delimiter);
    const run = await runScript(script, {
      cwd: root,
      env: { PATH: path, HOME: dir, LANG: "C.UTF-8", ...variables },
      timeoutMs,
    });
    return differences(script, run);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === import.meta.filename) {
  const receiver = await Receiver.start();
  const found = await runReadme({
    PG: process.env.PG ?? "http://127.0.0.1:8080",
    ADMIN_TOKEN: process.env.ADMIN_TOKEN ?? "",
    SLACK_WEBHOOK_URL: receiver.url(),
  });
  await receiver.close();
  process.stdout.write(found.length ? `${found.join("\n\n")}\n` : "README.md ran as written.\n");
  process.exitCode = found.length ? 1 : 0;
}
