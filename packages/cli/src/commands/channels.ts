import {
  CHANNEL_KINDS,
  type Channel,
  type ChannelKind,
  SIGNATURE_SCHEMES,
  type SignatureScheme,
  type UpdateChannelInput,
} from "@pulsegate/sdk";
import { Command, Option } from "commander";
import type { CliIo } from "../cli-io.ts";
import { adminClient, type ConnectionOptions, withAdminOptions } from "../connection.ts";
import { UsageError } from "../exit-codes.ts";
import { integer } from "../option-parsers.ts";
import { type Column, formatFields, formatTable, printResult } from "../print-output.ts";

const COLUMNS: Column<Channel>[] = [
  ["ID", (c) => c.id],
  ["KIND", (c) => c.kind],
  ["NAME", (c) => c.name],
  ["ENABLED", (c) => c.enabled],
  ["URL", (c) => c.maskedUrl],
];

/** What --destination is for each kind: a kind added to the vocabulary is not in the CLI until it is explained here. */
const DESTINATIONS: Record<ChannelKind, string> = {
  slack: "a Slack incoming-webhook URL",
  webhook: "your own endpoint, which gets signed JSON",
  pagerduty: "the Events API v2 endpoint, https://events.pagerduty.com/v2/enqueue",
  opsgenie: "the Alert API, https://api.opsgenie.com/v2/alerts (or the EU one)",
  email: "mailto: and comma-separated addresses, e.g. mailto:oncall@example.com,lead@example.com",
};

const KEY_HELP =
  "pagerduty: the integration's routing key; opsgenie: the API integration's key (the API requires it for those two kinds and refuses it for the others; sealed, never shown)";

const CREATE_HELP = `
--destination by kind:
${CHANNEL_KINDS.map((kind) => `  ${kind.padEnd(10)} ${DESTINATIONS[kind]}`).join("\n")}

Email channels need an SMTP relay configured on the alerts service (SMTP_URL); without one the API refuses them.

Examples:
  pulsegate channels create <teamId> --kind slack --name "#incidents" --destination https://hooks.slack.com/services/…
  pulsegate channels create <teamId> --kind pagerduty --name On-call --destination https://events.pagerduty.com/v2/enqueue --key <routing key>
  pulsegate channels create <teamId> --kind email --name "On-call mail" --destination mailto:oncall@example.com
  pulsegate channels create <teamId> --kind webhook --name Receiver --destination https://example.com/hooks --signature-scheme standard-webhooks`;

const SCHEME_HELP =
  "webhook channels: pulsegate (X-Webhook-Signature with the team's secret, the default) or standard-webhooks (webhook-id, webhook-timestamp, webhook-signature with a whsec_ secret of the channel's own, printed once)";

type ChannelFlags = { name?: string; destination?: string; key?: string; enable?: boolean; disable?: boolean };

function channelInput(flags: ChannelFlags): UpdateChannelInput {
  if (flags.enable && flags.disable) throw new UsageError("--enable and --disable contradict each other.");
  return {
    ...(flags.name === undefined ? {} : { name: flags.name }),
    ...(flags.destination === undefined ? {} : { url: flags.destination }),
    ...(flags.key === undefined ? {} : { key: flags.key }),
    ...(flags.enable ? { enabled: true } : flags.disable ? { enabled: false } : {}),
  };
}

export function channelsCommand(io: CliIo): Command {
  const channels = new Command("channels").description(
    "notification channels: Slack, your own signed endpoint, PagerDuty, Opsgenie or email",
  );

  withAdminOptions(
    channels
      .command("create")
      .description("add a channel (its destination and key are secrets: the destination is shown masked afterwards)")
      .argument("<teamId>")
      .addOption(new Option("--kind <kind>", "where it sends").choices(CHANNEL_KINDS).makeOptionMandatory())
      .requiredOption("--name <name>", "a name people recognise, e.g. #incidents")
      .requiredOption("--destination <url>", "its URL, by kind: see below")
      .option("--key <key>", KEY_HELP)
      .addOption(new Option("--signature-scheme <scheme>", SCHEME_HELP).choices(SIGNATURE_SCHEMES))
      .option("--disable", "create it disabled")
      .addHelpText("after", CREATE_HELP),
  ).action(
    async (
      teamId: string,
      options: ConnectionOptions & {
        kind: ChannelKind;
        name: string;
        destination: string;
        key?: string;
        signatureScheme?: SignatureScheme;
        disable?: boolean;
      },
    ) => {
      // --url is the gateway's, as everywhere; the channel's own address is --destination.
      const answer = await adminClient(io, options).createChannel(teamId, {
        kind: options.kind,
        name: options.name,
        url: options.destination,
        ...(options.key === undefined ? {} : { key: options.key }),
        ...(options.signatureScheme === undefined ? {} : { signatureScheme: options.signatureScheme }),
        ...(options.disable ? { enabled: false } : {}),
      });
      printResult(
        io,
        options.json,
        answer,
        () =>
          formatFields(answer.channel) +
          (answer.signingSecret ? `signing secret (shown once, store it now): ${answer.signingSecret}\n` : ""),
      );
    },
  );

  withAdminOptions(
    channels
      .command("rotate-signing-secret")
      .description(
        "give a standard-webhooks channel a new signing secret; the previous one keeps signing beside it for the grace period",
      )
      .argument("<channelId>")
      .addOption(
        new Option(
          "--grace-seconds <s>",
          "how long the previous secret keeps signing (0–604800; default 86400)",
        ).argParser(integer(0)),
      ),
  ).action(async (id: string, options: ConnectionOptions & { graceSeconds?: number }) => {
    const input = options.graceSeconds === undefined ? {} : { graceSeconds: options.graceSeconds };
    const answer = await adminClient(io, options).rotateChannelSigningSecret(id, input);
    printResult(
      io,
      options.json,
      answer,
      () =>
        `new signing secret (shown once, store it now): ${answer.signingSecret}\n` +
        `previous secret signs until: ${answer.previousValidUntil ?? "-"}\n`,
    );
  });

  withAdminOptions(channels.command("list").description("a team's channels").argument("<teamId>")).action(
    async (teamId: string, options: ConnectionOptions) => {
      const answer = await adminClient(io, options).listChannels(teamId);
      printResult(io, options.json, answer, () => formatTable(answer.channels, COLUMNS));
    },
  );

  withAdminOptions(
    channels
      .command("update")
      .description("change a channel's name, destination or key; enable or disable it")
      .argument("<channelId>")
      .option("--name <name>", "a new name")
      .option("--destination <url>", "a new destination (as for create; the channel keeps its key)")
      .option("--key <key>", "a new key, replacing the sealed one (pagerduty, opsgenie)")
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

  withAdminOptions(
    channels.command("test").description("send a test notification through a channel now").argument("<channelId>"),
  ).action(async (id: string, options: ConnectionOptions) => {
    const answer = await adminClient(io, options).testChannel(id);
    printResult(io, options.json, answer, () => formatFields(answer));
  });

  return channels;
}
