// The CLI's closed choices are the SDK's lists, the ones the API validates against (the services read
// them through @pulsegate/contract/vocabulary): a word added there (a channel kind, a severity) is
// accepted here without touching the CLI.
import { Writable } from "node:stream";
import { ALERT_STATUSES, CHANNEL_KINDS, SEVERITIES, SIGNATURE_SCHEMES, WEBHOOK_SOURCES } from "@pulsegate/sdk";
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import type { CliIo } from "./cli-io.ts";
import { buildProgram, runCli } from "./program.ts";

/** An io whose output is kept as text; no exit code until a command sets one. */
function capture(): CliIo & { out: () => string; err: () => string } {
  const chunks = { out: "", err: "" };
  const sink = (key: "out" | "err") =>
    new Writable({
      write(chunk, _encoding, done) {
        chunks[key] += String(chunk);
        done();
      },
    });
  return { stdout: sink("out"), stderr: sink("err"), out: () => chunks.out, err: () => chunks.err };
}

function choicesOf(path: string, flag: string): readonly string[] | undefined {
  let command: Command | undefined = buildProgram(capture());
  for (const name of path.split(" ")) command = command?.commands.find((sub) => sub.name() === name);
  const option = command?.options.find((candidate) => candidate.long === flag);
  if (option === undefined) throw new Error(`no ${flag} on ${path}`);
  return option.argChoices;
}

describe("the CLI's choices are the SDK's words", () => {
  it.each([
    ["channels create", "--kind", CHANNEL_KINDS],
    ["alerts list", "--status", ALERT_STATUSES],
    ["webhooks create", "--severity", SEVERITIES],
    ["webhooks create", "--source", WEBHOOK_SOURCES],
    ["webhooks update", "--severity", SEVERITIES],
    ["monitors create", "--severity", SEVERITIES],
    ["trigger", "--severity", SEVERITIES],
    ["webhooks create", "--signature-scheme", SIGNATURE_SCHEMES],
    ["webhooks update", "--signature-scheme", SIGNATURE_SCHEMES],
    ["monitors create", "--signature-scheme", SIGNATURE_SCHEMES],
    ["channels create", "--signature-scheme", SIGNATURE_SCHEMES],
  ])("%s %s", (path, flag, list) => {
    expect(choicesOf(path, flag)).toEqual(list);
  });

  it("channels create --help explains --destination for every kind, and --key", async () => {
    const io = capture();
    expect(await runCli(["channels", "create", "--help"], io)).toBe(0);
    for (const kind of CHANNEL_KINDS) expect(io.out()).toMatch(new RegExp(`^ {2}${kind} +\\S`, "m"));
    expect(io.out()).toContain("--key <key>");
    expect(io.out()).toContain("routing key");
    expect(io.out()).toContain("mailto:");
  });

  it("refuses a kind the API does not know before asking it, naming the ones it does (exit 1)", async () => {
    const io = capture();
    const args = ["channels", "create", "team_1", "--kind", "sms", "--name", "n", "--destination", "x"];
    expect(await runCli([...args, "--url", "http://127.0.0.1:9", "--token", "t"], io)).toBe(1);
    expect(io.err()).toContain(`Allowed choices are ${CHANNEL_KINDS.join(", ")}`);
  });
});
