import { SEVERITIES, type Severity, type TriggerResult } from "@pulsegate/sdk";
import { Command, Option } from "commander";
import type { CliIo } from "../cli-io.ts";
import { type ConnectionOptions, callerClient, withCallerOptions } from "../connection.ts";
import { json, keyValue } from "../option-parsers.ts";
import { printResult } from "../print-output.ts";

type TriggerFlags = {
  dryRun?: boolean;
  title: string;
  description?: string;
  severity?: Severity;
  groupKey?: string;
  metadata?: Record<string, unknown>;
  meta?: Record<string, string>;
};

/** --metadata's object with each --meta key=value laid over it; undefined when neither is given. */
export function mergedMetadata(flags: {
  metadata?: Record<string, unknown>;
  meta?: Record<string, string>;
}): Record<string, unknown> | undefined {
  if (flags.metadata === undefined && flags.meta === undefined) return undefined;
  return { ...flags.metadata, ...flags.meta };
}

export const metadataOptions = (command: Command) =>
  command
    .addOption(
      new Option("--metadata <json>", "a JSON object of metadata (filter rules read it)").argParser(json("object")),
    )
    .addOption(new Option("--meta <key=value>", "one metadata field, a string; repeatable").argParser(keyValue));

function describeTrigger(result: TriggerResult): string {
  switch (result.status) {
    case "filtered":
      return `filtered: ${result.reason ?? "-"}\n`;
    case "created":
      return `created ${result.alertId}\n`;
    default:
      return `${result.status} ${result.alertId} (occurrence ${result.occurrenceCount})\n`;
  }
}

export function triggerCommand(io: CliIo): Command {
  return metadataOptions(
    withCallerOptions(
      new Command("trigger")
        .description("send a signed alert trigger")
        .addHelpText(
          "after",
          "\nA trigger is tried again on 429, 503 and no answer, each time with the same Idempotency-Key: one the\n" +
            "service applied already (its answer lost) is answered as it was and not applied again.",
        )
        .argument("<webhookUrl>", "the webhook's token, or its full trigger URL")
        .requiredOption("--title <title>", "what is wrong (at most 200 characters)")
        .option("--description <text>", "more detail (at most 2000 characters)")
        .addOption(new Option("--severity <sev>", "overrides the webhook's default").choices(SEVERITIES))
        .option("--group-key <key>", "triggers with the same key fold into one open alert")
        .option("--dry-run", "check it and say what would happen; nothing is stored or notified"),
    ),
  ).action(async (webhookUrl: string, options: ConnectionOptions & TriggerFlags) => {
    const metadata = mergedMetadata(options);
    const result = await callerClient(io, options).trigger(
      webhookUrl,
      {
        title: options.title,
        ...(options.description === undefined ? {} : { description: options.description }),
        ...(options.severity === undefined ? {} : { severity: options.severity }),
        ...(options.groupKey === undefined ? {} : { groupKey: options.groupKey }),
        ...(metadata === undefined ? {} : { metadata }),
      },
      { dryRun: options.dryRun === true },
    );
    printResult(io, options.json, result, () =>
      // A dry run writes nothing: a new alert has no id yet.
      options.dryRun ? `dry run: ${result.status}, nothing was written\n` : describeTrigger(result),
    );
  });
}
