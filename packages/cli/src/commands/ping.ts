import type { PingInput, PingResult } from "@pulsegate/sdk";
import { Command } from "commander";
import type { CliIo } from "../cli-io.ts";
import { type ConnectionOptions, callerClient, withCallerOptions } from "../connection.ts";
import { printResult } from "../print-output.ts";
import { mergedMetadata, metadataOptions } from "./trigger.ts";

type PingFlags = {
  down?: boolean;
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
        .description("send a signed heartbeat ping: up, or --down with a reason")
        .argument("<pingUrl>", "the monitor's token, or its full ping URL")
        .option("--down", "report the job as failed (raises an incident at once)")
        .option("--reason <text>", "why (at most 200 characters)")
        .option("--group-key <key>", "alert grouping hint"),
    ),
  ).action(async (pingUrl: string, options: ConnectionOptions & PingFlags) => {
    const metadata = mergedMetadata(options);
    // No flag at all sends no body: the plain "up" ping, signed over the empty string.
    const body: PingInput = {
      ...(options.down ? { status: "down" as const } : {}),
      ...(options.reason === undefined ? {} : { reason: options.reason }),
      ...(options.groupKey === undefined ? {} : { groupKey: options.groupKey }),
      ...(metadata === undefined ? {} : { metadata }),
    };
    const result = await callerClient(io, options).ping(pingUrl, body);
    printResult(io, options.json, result, () => describePing(result));
  });
}
