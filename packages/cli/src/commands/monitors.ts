import type { Monitor, Ping, Severity, SignatureScheme } from "@pulsegate/sdk";
import { SEVERITIES, SIGNATURE_SCHEMES } from "@pulsegate/vocabulary";
import { Command, Option } from "commander";
import type { CliIo } from "../cli-io.ts";
import { adminClient, type ConnectionOptions, withAdminOptions } from "../connection.ts";
import { integer } from "../option-parsers.ts";
import { type Column, formatFields, formatTable, printResult } from "../print-output.ts";
import { type PageFlags, pageOptions, pageQuery, printNextCursor } from "./page-options.ts";

type MonitorFlags = {
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

export function monitorsCommand(io: CliIo): Command {
  const monitors = new Command("monitors").description("heartbeat monitors: jobs that ping on a schedule");

  withAdminOptions(
    monitors
      .command("create")
      .description("create a monitor; prints its ping URL")
      .argument("<teamId>")
      .argument("<name>")
      .addOption(new Option("--interval <s>", "seconds between expected pings").argParser(integer(1)))
      .addOption(new Option("--grace <s>", "extra seconds before a missed ping counts").argParser(integer(0)))
      .addOption(new Option("--severity <sev>", "severity of its incidents").choices(SEVERITIES))
      .addOption(
        new Option("--reopen-window <s>", "seconds in which a new incident reopens the last").argParser(integer(0)),
      )
      .addOption(
        new Option(
          "--signature-scheme <scheme>",
          "how pings are signed: pulsegate (X-Webhook-Signature, the default) or standard-webhooks (key: the team's whsec_ secret)",
        ).choices(SIGNATURE_SCHEMES),
      ),
  ).action(async (teamId: string, name: string, options: ConnectionOptions & MonitorFlags) => {
    const answer = await adminClient(io, options).createMonitor(teamId, {
      name,
      ...(options.interval === undefined ? {} : { intervalSeconds: options.interval }),
      ...(options.grace === undefined ? {} : { graceSeconds: options.grace }),
      ...(options.severity === undefined ? {} : { severity: options.severity }),
      ...(options.reopenWindow === undefined ? {} : { reopenWindowSeconds: options.reopenWindow }),
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

  return monitors;
}
