// The README test's checks can fail: an unset variable, a failing command (in a pipe too), output
// that differs from the `# →` lines or that no line announces, an unknown fence or no-run name.
import { describe, expect, it } from "vitest";
import { runMarkdown } from "./readme-run.ts";

const fence = "```";
const run = (markdown: string) => runMarkdown(markdown, {}, 20_000);

describe("README checks", () => {
  it("passes a block that prints what it says, with … for what differs on every run", async () => {
    const markdown = [
      `${fence}bash`,
      'ID=alert_$RANDOM; echo "$ID at $(date -u +%FT%TZ)"',
      "# → alert_… at 20…Z",
      "printf 'no newline'",
      "# → no newline",
      "X=quiet",
      fence,
    ].join("\n");
    expect(await run(markdown)).toEqual([]);
  });

  it("fails on an unset variable, naming its README line", async () => {
    const found = await run([`${fence}bash`, "echo one", "# → one", 'echo "$NOT_SET"', fence].join("\n"));
    expect(found.join("\n")).toMatch(/stderr:\nREADME\.md line 4: NOT_SET: unbound variable/);
  });

  it("fails on a command that exits non-zero, in a pipe too, and runs nothing after it", async () => {
    const found = await run([`${fence}bash`, "false | cat", "echo after", "# → after", fence].join("\n"));
    expect(found.join("\n")).toMatch(/lines 2-3 did not finish: bash exited with 1/);
    expect(found.join("\n")).toMatch(/failed at README\.md line 2 with status 1/);
  });

  it("fails on output that differs, and on output no # → line announces", async () => {
    expect((await run([`${fence}bash`, "echo hello", "# → goodbye", fence].join("\n"))).join("\n")).toMatch(
      /line 2 printed\n {2}hello\nbut the README says\n {2}# → goodbye/,
    );
    expect((await run([`${fence}bash`, "echo surprise", fence].join("\n"))).join("\n")).toMatch(
      /printed\n {2}surprise\nbut the README says\n {2}\(nothing\)/,
    );
  });

  it("runs js blocks with node, in order, with the variables bash exported", async () => {
    const markdown = [
      `${fence}bash`,
      "export NAME=world",
      fence,
      `${fence}js`,
      `console.log("hello", process.env.NAME);`,
      "// → hello world",
      fence,
    ].join("\n");
    expect(await run(markdown)).toEqual([]);
  });

  it("skips a named no-run block and shown-only languages, and refuses unknown ones", async () => {
    expect(
      await run([`${fence}bash no-run=start`, "exit 1", fence, `${fence}ts`, "nonsense(", fence].join("\n")),
    ).toEqual([]);
    expect(await run([`${fence}bash no-run=because`, "true", fence].join("\n"))).toEqual([
      "README.md line 1: no-run=because is not one of start, connect, develop",
    ]);
    expect(await run([`${fence}zsh`, "true", fence].join("\n"))).toEqual([
      "README.md line 1: a ```zsh block is neither run nor known as shown-only",
    ]);
  });
});
