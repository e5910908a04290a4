// Runs README.md's blocks (readme-blocks.ts says which and how) as one bash script and checks what
// each command printed against the README's `# →` lines.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Block, expectationMarker, lineMatches } from "./readme-blocks.ts";

/** A point in the script where the output since the previous one is checked. */
export type Checkpoint = {
  /** README lines of the code whose output this is (first and last). */
  from: number;
  to: number;
  /** What it must print, line by line (`…` matches anything); empty: nothing at all. */
  expected: string[];
};

export type ReadmeScript = {
  /** Where the script is written, and its text. */
  file: string;
  text: string;
  checkpoints: Checkpoint[];
  /** README line of each script line (index 0 is the script's line 1; 0: a line the test added). */
  readmeLine: number[];
};

/** Output that cannot come from a README command: it separates one checkpoint's output from the next. */
const SEPARATOR = "\u001e";
const CHECKPOINT = new RegExp(`\\n${SEPARATOR}(\\d+)${SEPARATOR}\\n`);

/** The script: the blocks in order, js blocks written into `dir`, a marker printed at each checkpoint. */
export function readmeScript(blocks: Block[], dir: string): ReadmeScript {
  const text: string[] = [];
  const readmeLine: number[] = [];
  const checkpoints: Checkpoint[] = [];
  const emit = (line: string, from = 0) => {
    text.push(line);
    readmeLine.push(from);
  };
  // Which README line failed, for the report: `set -e` stops at the first command that fails.
  emit("set -euo pipefail");
  emit(`trap 'printf "${SEPARATOR}failed at line %s with status %s${SEPARATOR}\\n" "$LINENO" "$?" >&2' ERR`);

  for (const block of blocks) {
    const marker = expectationMarker(block.language);
    let pending: { from: number; to: number } | undefined;
    let expected: string[] = [];
    const checkpoint = () => {
      const from = pending?.from ?? block.line;
      const to = pending?.to ?? block.line;
      checkpoints.push({ from, to, expected });
      emit(`printf '\\n${SEPARATOR}%s${SEPARATOR}\\n' ${checkpoints.length - 1}`);
      pending = undefined;
      expected = [];
    };
    const code = (line: number) => {
      if (expected.length > 0) checkpoint();
      pending = { from: pending?.from ?? line, to: line };
    };

    if (block.language === "js") {
      const file = join(dir, `readme-line-${block.line}.mjs`);
      writeFileSync(file, `${block.lines.map((line) => line.text).join("\n")}\n`);
      for (const line of block.lines) {
        const expectation = marker.exec(line.text);
        if (expectation) expected.push(expectation[1] ?? "");
      }
      pending = { from: block.line, to: block.line + block.lines.length };
      emit(`node '${file}'`, block.line);
      checkpoint();
      continue;
    }
    for (const line of block.lines) {
      const expectation = marker.exec(line.text);
      if (expectation) {
        expected.push(expectation[1] ?? "");
        continue;
      }
      if (line.text.trim() !== "" && !line.text.trim().startsWith("#")) code(line.line);
      emit(line.text, line.line);
    }
    checkpoint();
  }
  return { file: join(dir, "readme.sh"), text: `${text.join("\n")}\n`, checkpoints, readmeLine };
}

export type Run = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

/** Runs the script with bash in `cwd`, with exactly `env`; kills it after `timeoutMs`. */
export function runScript(
  script: ReadmeScript,
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<Run> {
  writeFileSync(script.file, script.text);
  return new Promise((resolve) => {
    const child = spawn("bash", [script.file], {
      cwd: options.cwd,
      env: options.env,
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
      stderr += `\n(killed after ${options.timeoutMs} ms)`;
      child.kill("SIGKILL");
    }, options.timeoutMs);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/**
 * Every difference between the run and the README, as sentences naming README lines; none when
 * every checkpoint was reached, printed what the README says, and bash exited 0.
 */
export function differences(script: ReadmeScript, run: Run): string[] {
  const parts = run.stdout.split(CHECKPOINT);
  const printed = new Map<number, string>();
  for (let index = 1; index < parts.length; index += 2) {
    printed.set(Number(parts[index]), parts[index - 1] ?? "");
  }
  const found: string[] = [];
  for (const [index, checkpoint] of script.checkpoints.entries()) {
    const output = printed.get(index);
    const lines =
      checkpoint.from === checkpoint.to ? `line ${checkpoint.from}` : `lines ${checkpoint.from}-${checkpoint.to}`;
    const where = `README.md ${lines}`;
    if (output === undefined) {
      found.push(`${where} did not finish: ${failure(script, run)}`);
      break;
    }
    const actual = output.replace(/\n$/, "");
    const printedLines = actual === "" ? [] : actual.split("\n");
    const same =
      printedLines.length === checkpoint.expected.length &&
      printedLines.every((line, at) => lineMatches(checkpoint.expected[at] ?? "", line));
    if (!same) {
      const said = checkpoint.expected.length ? checkpoint.expected.map((line) => `  # → ${line}`) : ["  (nothing)"];
      const got = printedLines.length ? printedLines.map((line) => `  ${line}`) : ["  (nothing)"];
      found.push(`${where} printed\n${got.join("\n")}\nbut the README says\n${said.join("\n")}`);
    }
  }
  if (found.length === 0 && (run.code !== 0 || run.signal)) found.push(failure(script, run));
  return found;
}

/** What stopped bash, with the script's line numbers turned into README lines. */
function failure(script: ReadmeScript, run: Run): string {
  const stderr = run.stderr
    .replaceAll(`${script.file}: `, "")
    .replace(/line (\d+)/g, (_, line: string) => `README.md line ${script.readmeLine[Number(line) - 1] ?? "?"}`)
    .replaceAll(SEPARATOR, "");
  return `bash exited with ${run.signal ?? run.code}; stderr:\n${stderr.trim() || "(empty)"}`;
}
