import type { Silence } from "@pulsegate/sdk";
import { Command, Option } from "commander";
import type { CliIo } from "../cli-io.ts";
import { adminClient, type ConnectionOptions, withAdminOptions } from "../connection.ts";
import { json, timestamp } from "../option-parsers.ts";
import { type Column, formatFields, formatTable, printResult } from "../print-output.ts";

type SilenceFlags = {
  startsAt: string;
  endsAt: string;
  recurrence?: "daily" | "weekly";
  groupKeyPrefix?: string;
  sourceIds?: string;
  metadata?: Record<string, unknown>;
};

const COLUMNS: Column<Silence>[] = [
  ["ID", (s) => s.id],
  ["NAME", (s) => s.name],
  ["STARTS", (s) => s.startsAt],
  ["ENDS", (s) => s.endsAt],
  ["REPEATS", (s) => s.recurrence],
];

export function silencesCommand(io: CliIo): Command {
  const silences = new Command("silences").description("windows in which a team's matching alerts notify no one");

  withAdminOptions(
    silences
      .command("create")
      .description("silence a team's matching alerts (all of them, without matchers) for a window")
      .argument("<teamId>")
      .argument("<name>")
      .requiredOption("--starts-at <time>", "an ISO date-time", timestamp)
      .requiredOption("--ends-at <time>", "an ISO date-time after --starts-at", timestamp)
      .addOption(new Option("--recurrence <every>", "repeat the window (UTC)").choices(["daily", "weekly"]))
      .option("--group-key-prefix <prefix>", "only alerts whose group key starts so")
      .option("--source-ids <ids>", "only alerts of these webhooks or monitors (comma-separated ids)")
      .addOption(
        new Option("--metadata <json>", "only alerts whose metadata holds these fields").argParser(json("object")),
      ),
  ).action(async (teamId: string, name: string, options: ConnectionOptions & SilenceFlags) => {
    const matchers = {
      ...(options.groupKeyPrefix === undefined ? {} : { groupKeyPrefix: options.groupKeyPrefix }),
      ...(options.sourceIds === undefined ? {} : { sourceIds: options.sourceIds.split(",").map((id) => id.trim()) }),
      ...(options.metadata === undefined ? {} : { metadata: options.metadata }),
    };
    const answer = await adminClient(io, options).createSilence(teamId, {
      name,
      startsAt: options.startsAt,
      endsAt: options.endsAt,
      ...(options.recurrence === undefined ? {} : { recurrence: options.recurrence }),
      ...(Object.keys(matchers).length === 0 ? {} : { matchers }),
    });
    printResult(io, options.json, answer, () => formatFields(answer.silence));
  });

  withAdminOptions(silences.command("list").description("a team's silences").argument("<teamId>")).action(
    async (teamId: string, options: ConnectionOptions) => {
      const answer = await adminClient(io, options).listSilences(teamId);
      printResult(io, options.json, answer, () => formatTable(answer.silences, COLUMNS));
    },
  );

  withAdminOptions(
    silences.command("delete").description("end a silence").argument("<teamId>").argument("<silenceId>"),
  ).action(async (teamId: string, id: string, options: ConnectionOptions) => {
    await adminClient(io, options).deleteSilence(teamId, id);
    printResult(io, options.json, { deleted: id }, () => `deleted ${id}\n`);
  });

  return silences;
}
