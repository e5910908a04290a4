import type { Channel, ChannelKind, UpdateChannelInput } from "@pulsegate/sdk";
import { Command, Option } from "commander";
import type { CliIo } from "../cli-io.ts";
import { adminClient, type ConnectionOptions, withAdminOptions } from "../connection.ts";
import { UsageError } from "../exit-codes.ts";
import { type Column, formatFields, formatTable, printResult } from "../print-output.ts";

const COLUMNS: Column<Channel>[] = [
  ["ID", (c) => c.id],
  ["KIND", (c) => c.kind],
  ["NAME", (c) => c.name],
  ["ENABLED", (c) => c.enabled],
  ["URL", (c) => c.maskedUrl],
];

type ChannelFlags = { name?: string; destination?: string; enable?: boolean; disable?: boolean };

function channelInput(flags: ChannelFlags): UpdateChannelInput {
  if (flags.enable && flags.disable) throw new UsageError("--enable and --disable contradict each other.");
  return {
    ...(flags.name === undefined ? {} : { name: flags.name }),
    ...(flags.destination === undefined ? {} : { url: flags.destination }),
    ...(flags.enable ? { enabled: true } : flags.disable ? { enabled: false } : {}),
  };
}

export function channelsCommand(io: CliIo): Command {
  const channels = new Command("channels").description("notification channels: Slack or your own signed endpoint");

  withAdminOptions(
    channels
      .command("create")
      .description("add a channel (its URL is a secret: shown masked afterwards)")
      .argument("<teamId>")
      .addOption(new Option("--kind <kind>", "slack or webhook").choices(["slack", "webhook"]).makeOptionMandatory())
      .requiredOption("--name <name>", "a name people recognise, e.g. #incidents")
      .requiredOption("--destination <url>", "the Slack incoming-webhook URL or your endpoint")
      .option("--disable", "create it disabled"),
  ).action(
    async (
      teamId: string,
      options: ConnectionOptions & { kind: ChannelKind; name: string; destination: string; disable?: boolean },
    ) => {
      // --url is the gateway's, as everywhere; the channel's own address is --destination.
      const answer = await adminClient(io, options).createChannel(teamId, {
        kind: options.kind,
        name: options.name,
        url: options.destination,
        ...(options.disable ? { enabled: false } : {}),
      });
      printResult(io, options.json, answer, () => formatFields(answer.channel));
    },
  );

  withAdminOptions(channels.command("list").description("a team's channels").argument("<teamId>")).action(
    async (teamId: string, options: ConnectionOptions) => {
      const answer = await adminClient(io, options).listChannels(teamId);
      printResult(io, options.json, answer, () => formatTable(answer.channels, COLUMNS));
    },
  );

  withAdminOptions(
    channels
      .command("update")
      .description("change a channel's name or destination; enable or disable it")
      .argument("<channelId>")
      .option("--name <name>", "a new name")
      .option("--destination <url>", "a new destination URL")
      .option("--enable", "send to it again")
      .option("--disable", "stop sending to it"),
  ).action(async (id: string, options: ConnectionOptions & ChannelFlags) => {
    const input = channelInput(options);
    if (Object.keys(input).length === 0) throw new UsageError("Nothing to change: pass at least one option.");
    const answer = await adminClient(io, options).updateChannel(id, input);
    printResult(io, options.json, answer, () => formatFields(answer.channel));
  });

  withAdminOptions(channels.command("delete").description("delete a channel").argument("<channelId>")).action(
    async (id: string, options: ConnectionOptions) => {
      await adminClient(io, options).deleteChannel(id);
      printResult(io, options.json, { deleted: id }, () => `deleted ${id}\n`);
    },
  );

  return channels;
}
