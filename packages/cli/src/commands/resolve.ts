import { Command } from "commander";
import type { CliIo } from "../cli-io.ts";
import { type ConnectionOptions, callerClient, withCallerOptions } from "../connection.ts";
import { printResult } from "../print-output.ts";

export function resolveCommand(io: CliIo): Command {
  return withCallerOptions(
    new Command("resolve")
      .description("resolve the team's open alert with this group key (signed, as trigger)")
      .argument("<webhookUrl>", "the webhook's token, or its full trigger URL's token")
      .requiredOption("--group-key <key>", "the group key of the open alert"),
  ).action(async (webhookUrl: string, options: ConnectionOptions & { groupKey: string }) => {
    const result = await callerClient(io, options).resolve(webhookUrl, options.groupKey);
    printResult(io, options.json, result, () => `${String(result.message ?? "resolved")}\n`);
  });
}
