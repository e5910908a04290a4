import type { Command } from "commander";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../../services/gateway/src/testing/build-test-app.ts";
import { OPERATION_COMMANDS, OPERATIONS_WITHOUT_COMMAND } from "./operations.ts";
import { buildProgram } from "./program.ts";

type Document = { paths: Record<string, Record<string, { operationId?: string }>> };

/** The command a line such as "monitors edit" or "ping --start" names, and its option's presence. */
function commandFor(program: Command, line: string): { found: boolean; option: boolean } {
  const words = line.split(" ");
  let command: Command | undefined = program;
  for (const word of words.filter((w) => !w.startsWith("--"))) {
    command = command?.commands.find((sub) => sub.name() === word);
  }
  const option = words.find((w) => w.startsWith("--"));
  return {
    found: command !== undefined && command !== program,
    option: option === undefined || (command?.options.some((o) => o.long === option) ?? false),
  };
}

describe("the CLI against the OpenAPI document", () => {
  let app: ReturnType<typeof buildTestApp>;
  let operationIds: string[];

  beforeAll(async () => {
    app = buildTestApp();
    await app.ready();
    const document = (await app.inject({ method: "GET", url: "/openapi.json" })).json() as Document;
    operationIds = Object.values(document.paths).flatMap((item) =>
      Object.values(item).map((operation) => operation.operationId ?? "(no operationId)"),
    );
  });
  afterAll(() => app.close());

  it("has a command for every operation, or says why not", () => {
    const covered = new Set([...Object.keys(OPERATION_COMMANDS), ...Object.keys(OPERATIONS_WITHOUT_COMMAND)]);
    expect(operationIds.filter((id) => !covered.has(id))).toEqual([]);
  });

  it("names no operation the document lacks", () => {
    const known = new Set(operationIds);
    expect(
      [...Object.keys(OPERATION_COMMANDS), ...Object.keys(OPERATIONS_WITHOUT_COMMAND)].filter((id) => !known.has(id)),
    ).toEqual([]);
  });

  it("names only commands and options the CLI has", () => {
    const program = buildProgram({ stdout: process.stdout, stderr: process.stderr } as never);
    const missing = Object.entries(OPERATION_COMMANDS).filter(([, line]) => {
      const { found, option } = commandFor(program, line);
      return !(found && option);
    });
    expect(missing).toEqual([]);
  });
});
