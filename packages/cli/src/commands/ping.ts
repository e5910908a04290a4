import type { PingInput, PingResult } from "@pulsegate/sdk";
import { Command } from "commander";
import type { CliIo } from "../cli-io.ts";
import { type ConnectionOptions, callerClient, withCallerOptions } from "../connection.ts";
import { UsageError } from "../exit-codes.ts";
import { printResult } from "../print-output.ts";
import { mergedMetadata, metadataOptions } from "./trigger.ts";

type PingFlags = {
  down?: boolean;
  start?: boolean;
  dryRun?: boolean;
  reason?: string;
  groupKey?: string;
  metadata?: Record<string, unknown>;
  meta?: Record<string, string>;
};

export const describePing = (result: PingResult): string =>
  `${result.pingStatus} ping received: ${result.monitor.name} is ${result.monitor.status}` +
  `${result.monitor.monitoringActive ? "" : " (not monitoring yet)"}\n`;

export function pingCommand(io: CliIo): Command {
  return metadataOptions(
    withCallerOptions(
      new Command("ping")
        .description("send a signed heartbeat ping: up, --start of a run, or --down with a reason")
        .argument("<pingUrl>", "the monitor's token, or its full ping URL")
        .option("--down", "report the job as failed (raises an incident at once)")
        .option("--start", "report that a run began (its duration is measured to the next up ping)")
        .option("--dry-run", "check it and say what would happen; nothing is stored")
        .option("--reason <text>", "why (at most 200 characters)")
        .option("--group-key <key>", "alert grouping hint"),
    ),
  ).action(async (pingUrl: string, options: ConnectionOptions & PingFlags) => {
    const metadata = mergedMetadata(options);
    // No flag at all sends no body: the plain "up" ping, signed over the empty string.
    const body: PingInput = {
      ...(options.down ? { status: "down" as const } : {}),
      ...(options.start ? { status: "start" as const } : {}),
      ...(options.reason === undefined ? {} : { reason: options.reason }),
      ...(options.groupKey === undefined ? {} : { groupKey: options.groupKey }),
      ...(metadata === undefined ? {} : { metadata }),
    };
    if (options.down && options.start) throw new UsageError("--down and --start exclude each other.");
    const result = await callerClient(io, options).ping(pingUrl, body, { dryRun: options.dryRun === true });
    printResult(io, options.json, result, () => describePing(result));
  });
}
