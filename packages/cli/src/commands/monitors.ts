import {
  type Monitor,
  type Ping,
  SEVERITIES,
  type Severity,
  SIGNATURE_SCHEMES,
  type SignatureScheme,
} from "@pulsegate/sdk";
import { Command, Option } from "commander";
import type { CliIo } from "../cli-io.ts";
import { adminClient, type ConnectionOptions, withAdminOptions } from "../connection.ts";
import { UsageError } from "../exit-codes.ts";
import { integer } from "../option-parsers.ts";
import { type Column, formatFields, formatTable, printResult } from "../print-output.ts";
import { type PageFlags, pageOptions, pageQuery, printNextCursor } from "./page-options.ts";

type MonitorFlags = {
  name?: string;
  schedule?: string;
  timezone?: string;
  maxDuration?: number;
  repeatInterval?: number;
  requireTimestamp?: boolean;
  interval?: number;
  grace?: number;
  severity?: Severity;
  reopenWindow?: number;
  signatureScheme?: SignatureScheme;
};

const COLUMNS: Column<Monitor>[] = [
  ["ID", (m) => m.id],
  ["NAME", (m) => m.name],
  ["STATUS", (m) => m.status],
  ["EVERY", (m) => `${m.intervalSeconds}s+${m.graceSeconds}s`],
  ["LAST PING", (m) => m.lastPingAt],
  ["PING URL", (m) => m.pingUrl],
];

const PING_COLUMNS: Column<Ping>[] = [
  ["RECEIVED", (p) => p.receivedAt],
  ["STATUS", (p) => p.status],
  ["METHOD", (p) => p.method],
  ["REASON", (p) => p.reason],
];

/** The options create and edit share. */
const settingOptions = (command: Command) =>
  command
    .addOption(new Option("--interval <s>", "seconds between expected pings").argParser(integer(1)))
    .addOption(new Option("--grace <s>", "extra seconds before a missed ping counts").argParser(integer(0)))
    .addOption(new Option("--severity <sev>", "severity of its incidents").choices(SEVERITIES))
    .addOption(
      new Option("--reopen-window <s>", "seconds in which a new incident reopens the last").argParser(integer(0)),
    )
    .option("--schedule <cron>", 'a 5-field cron expression instead of --interval, e.g. "15 3 * * *"')
    .option("--timezone <zone>", "the IANA time zone the schedule is read in (default UTC)")
    .addOption(
      new Option("--max-duration <s>", "a run (start to up ping) longer than this is down; 0: no maximum").argParser(
        integer(0),
      ),
    )
    .addOption(
      new Option("--repeat-interval <s>", "remind this often while its incident is open; 0: never").argParser(
        integer(0),
      ),
    )
    .option("--require-timestamp", "pings must send and sign X-Webhook-Timestamp (replay protection)")
    .option("--no-require-timestamp", "pings need no timestamp");

/** The settings given on the command line, as the API names them. */
function monitorSettings(options: MonitorFlags) {
  return {
    ...(options.interval === undefined ? {} : { intervalSeconds: options.interval }),
    ...(options.grace === undefined ? {} : { graceSeconds: options.grace }),
    ...(options.severity === undefined ? {} : { severity: options.severity }),
    ...(options.reopenWindow === undefined ? {} : { reopenWindowSeconds: options.reopenWindow }),
    ...(options.schedule === undefined ? {} : { schedule: options.schedule }),
    ...(options.timezone === undefined ? {} : { timezone: options.timezone }),
    ...(options.maxDuration === undefined ? {} : { maxDurationSeconds: options.maxDuration }),
    ...(options.repeatInterval === undefined ? {} : { repeatIntervalSeconds: options.repeatInterval }),
    ...(options.requireTimestamp === undefined ? {} : { requireTimestamp: options.requireTimestamp }),
  };
}

export function monitorsCommand(io: CliIo): Command {
  const monitors = new Command("monitors").description("heartbeat monitors: jobs that ping on a schedule");

  withAdminOptions(
    settingOptions(monitors.command("create"))
      .description("create a monitor; prints its ping URL")
      .argument("<teamId>")
      .argument("<name>")
      .addOption(
        new Option(
          "--signature-scheme <scheme>",
          "how pings are signed: pulsegate (X-Webhook-Signature, the default) or standard-webhooks (key: the team's whsec_ secret)",
        ).choices(SIGNATURE_SCHEMES),
      ),
  ).action(async (teamId: string, name: string, options: ConnectionOptions & MonitorFlags) => {
    const answer = await adminClient(io, options).createMonitor(teamId, {
      name,
      ...monitorSettings(options),
      ...(options.signatureScheme === undefined ? {} : { signatureScheme: options.signatureScheme }),
    });
    printResult(io, options.json, answer, () => formatFields(answer.monitor));
  });

  withAdminOptions(monitors.command("list").description("a team's monitors").argument("<teamId>")).action(
    async (teamId: string, options: ConnectionOptions) => {
      const answer = await adminClient(io, options).listMonitors(teamId);
      printResult(io, options.json, answer, () => formatTable(answer.monitors, COLUMNS));
    },
  );

  withAdminOptions(monitors.command("show").description("show a monitor").argument("<monitorId>")).action(
    async (id: string, options: ConnectionOptions) => {
      const answer = await adminClient(io, options).getMonitor(id);
      printResult(io, options.json, answer, () => formatFields(answer.monitor));
    },
  );

  withAdminOptions(
    monitors.command("pause").description("pause a monitor: its pings are answered 404").argument("<monitorId>"),
  ).action(async (id: string, options: ConnectionOptions) => {
    const answer = await adminClient(io, options).pauseMonitor(id);
    printResult(io, options.json, answer, () => `${answer.monitor.id} ${answer.monitor.status}\n`);
  });

  withAdminOptions(
    monitors.command("resume").description("resume a monitor: idle until its next ping").argument("<monitorId>"),
  ).action(async (id: string, options: ConnectionOptions) => {
    const answer = await adminClient(io, options).resumeMonitor(id);
    printResult(io, options.json, answer, () => `${answer.monitor.id} ${answer.monitor.status}\n`);
  });

  pageOptions(
    withAdminOptions(
      monitors.command("pings").description("a monitor's recent pings, newest first").argument("<monitorId>"),
    ),
  ).action(async (id: string, options: ConnectionOptions & PageFlags) => {
    const answer = await adminClient(io, options).listPings(id, pageQuery(options));
    printResult(io, options.json, answer, () => formatTable(answer.pings, PING_COLUMNS) + printNextCursor(answer));
  });

  withAdminOptions(
    settingOptions(
      monitors
        .command("edit")
        .description("change a monitor: only the settings given (--schedule none: an interval monitor again)")
        .argument("<monitorId>")
        .option("--name <name>", "its new name"),
    ),
  ).action(async (id: string, options: ConnectionOptions & MonitorFlags) => {
    const settings = { ...monitorSettings(options), ...(options.name === undefined ? {} : { name: options.name }) };
    // "none" clears a setting a monitor may go without (sent as null, the API's merge patch).
    const patch = Object.fromEntries(
      Object.entries(settings).map(([key, value]) => [key, value === "none" ? null : value]),
    );
    if (Object.keys(patch).length === 0)
      throw new UsageError("Nothing to change: give at least one setting (see --help).");
    const answer = await adminClient(io, options).updateMonitor(id, patch);
    printResult(io, options.json, answer, () => formatFields(answer.monitor));
  });

  withAdminOptions(
    monitors.command("delete").description("delete a monitor: its pings answer 404 at once").argument("<monitorId>"),
  ).action(async (id: string, options: ConnectionOptions) => {
    await adminClient(io, options).deleteMonitor(id);
    printResult(io, options.json, { deleted: id }, () => `deleted ${id}\n`);
  });

  return monitors;
}
