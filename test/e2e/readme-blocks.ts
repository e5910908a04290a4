// README.md as a script: its fenced blocks, which of them run, and what each command is expected
// to print. The conventions (CONTRIBUTING.md, "The README is tested"):
//
// - A ```bash (or ```sh) block runs in one bash process with the blocks before it, in order,
//   under `set -euo pipefail`. A ```js block is saved as a file and run with `node`, in the same
//   place in that order; it sees the variables the bash blocks exported.
// - `# → text` lines (`// → text` in js) right after a command are what it prints on stdout, one
//   line each; `…` in them stands for any characters on that line (an id, a time, a secret). A
//   command with no such lines must print nothing.
// - A block that must not run says so in its info string with a name the test knows:
//   ```bash no-run=start. Other languages (ts, yaml, cron, markdown, a plain fence) are not run.

export type Block = {
  /** README line of the opening fence (1-based). */
  line: number;
  language: string;
  /** The name after `no-run=`, when the block is not run. */
  noRun?: string;
  /** The lines between the fences, each with its README line. */
  lines: { text: string; line: number }[];
};

/** Fence languages that are commands, and how a block of each is run. */
export const RUN_LANGUAGES = new Set(["bash", "sh", "js"]);
/** Fence languages that are shown, not run: code in other tools' formats, or the shape of a file. */
export const SHOWN_LANGUAGES = new Set(["", "ts", "yaml", "cron", "markdown", "json", "text"]);

const OPENING_FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`]*)$/;

/** Every fenced block of the Markdown, in order (CommonMark fences: a closing one as long or longer). */
export function fencedBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const open = OPENING_FENCE.exec(lines[index] ?? "");
    if (!open) continue;
    const [, fence = "", info = ""] = open;
    const closing = new RegExp(`^ {0,3}${fence[0] === "`" ? "`" : "~"}{${fence.length},}\\s*$`);
    const [language = "", ...words] = info.trim().split(/\s+/);
    const noRun = words.find((word) => word.startsWith("no-run"));
    const block: Block = { line: index + 1, language, lines: [] };
    if (noRun !== undefined) block.noRun = noRun.replace(/^no-run=?/, "");
    for (index += 1; index < lines.length && !closing.test(lines[index] ?? ""); index++) {
      block.lines.push({ text: lines[index] ?? "", line: index + 1 });
    }
    blocks.push(block);
  }
  return blocks;
}

/** `# → ` in shell, `// → ` in js: the marker of an expected-output line. */
export function expectationMarker(language: string): RegExp {
  return language === "js" ? /^\s*\/\/ →(?: (.*))?$/ : /^\s*# →(?: (.*))?$/;
}

/** Does `actual` (one line of output) match `expected`, where `…` stands for any characters? */
export function lineMatches(expected: string, actual: string): boolean {
  const pattern = expected
    .split("…")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${pattern}$`, "s").test(actual);
}
