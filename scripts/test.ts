// `npm test`: every vitest project (unit, then end to end against real
// PostgreSQL and Redis), then one plain summary line for CI.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const report = join(mkdtempSync(join(tmpdir(), "pulsegate-test-")), "vitest.json");
const run = spawnSync(
  process.execPath,
  [
    join(root, "node_modules/vitest/vitest.mjs"),
    "run",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${report}`,
    ...process.argv.slice(2),
  ],
  { cwd: root, stdio: "inherit" },
);
try {
  const summary = JSON.parse(readFileSync(report, "utf8")) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
    testResults: { status: string }[];
  };
  const skipped = summary.numPendingTests + summary.numTodoTests;
  // A file that fails before its tests run (a missing browser, a stack that would not start) fails no test.
  const failedFiles = summary.testResults.filter((file) => file.status === "failed").length;
  const files = failedFiles ? `, ${failedFiles} file(s) failed` : "";
  process.stdout.write(
    `\ntests: ${summary.numPassedTests} passed, ${summary.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ""}${files}\n`,
  );
} catch {
  process.stdout.write("\ntests: no report was written (vitest did not finish)\n");
}
process.exit(run.status ?? 1);
