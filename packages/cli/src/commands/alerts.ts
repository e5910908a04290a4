import { ALERT_STATUSES, type Alert, type AlertStatus, type Delivery, type Occurrence } from "@pulsegate/sdk";
import { Command, Option } from "commander";
import type { CliIo } from "../cli-io.ts";
import { adminClient, type ConnectionOptions, withAdminOptions } from "../connection.ts";
import { type Column, formatFields, formatTable, printResult } from "../print-output.ts";
import { type PageFlags, pageOptions, pageQuery, printNextCursor } from "./page-options.ts";

const COLUMNS: Column<Alert>[] = [
  ["ID", (a) => a.id],
  ["STATUS", (a) => a.status],
  ["SEV", (a) => a.severity],
  ["COUNT", (a) => a.occurrenceCount],
  ["LAST SEEN", (a) => a.lastSeenAt],
  ["TITLE", (a) => a.title],
];

const OCCURRENCE_COLUMNS: Column<Occurrence>[] = [
  ["RECEIVED", (o) => o.receivedAt],
  ["SOURCE", (o) => o.source],
  ["SEV", (o) => o.severity],
  ["TITLE", (o) => o.title],
];

const DELIVERY_COLUMNS: Column<Delivery>[] = [
  ["ID", (d) => d.id],
  ["EVENT", (d) => d.eventType],
  ["CHANNEL", (d) => d.channelName],
  ["STATUS", (d) => d.status],
  ["ATTEMPTS", (d) => `${d.attempts}/${d.maxAttempts}`],
  ["LAST ERROR", (d) => d.lastError ?? d.lastStatusCode],
];

export function alertsCommand(io: CliIo): Command {
  const alerts = new Command("alerts").description("alerts: list, show, acknowledge, resolve");

  pageOptions(
    withAdminOptions(
      alerts
        .command("list")
        .description("a team's alerts, newest first")
        .argument("<teamId>")
        .addOption(new Option("--status <status>", "only these").choices(ALERT_STATUSES)),
    ),
  ).action(async (teamId: string, options: ConnectionOptions & PageFlags & { status?: AlertStatus }) => {
    const answer = await adminClient(io, options).listAlerts(teamId, {
      ...pageQuery(options),
      ...(options.status === undefined ? {} : { status: options.status }),
    });
    printResult(io, options.json, answer, () => formatTable(answer.alerts, COLUMNS) + printNextCursor(answer));
  });

  withAdminOptions(alerts.command("show").description("show an alert").argument("<alertId>")).action(
    async (id: string, options: ConnectionOptions) => {
      const answer = await adminClient(io, options).getAlert(id);
      printResult(io, options.json, answer, () => formatFields(answer.alert));
    },
  );

  withAdminOptions(
    alerts.command("ack").alias("acknowledge").description("acknowledge an open alert").argument("<alertId>"),
  ).action(async (id: string, options: ConnectionOptions) => {
    const answer = await adminClient(io, options).acknowledgeAlert(id);
    printResult(io, options.json, answer, () => `${answer.alert.id} ${answer.alert.status}\n`);
  });

  withAdminOptions(alerts.command("resolve").description("resolve an alert").argument("<alertId>")).action(
    async (id: string, options: ConnectionOptions) => {
      const answer = await adminClient(io, options).resolveAlert(id);
      printResult(io, options.json, answer, () => `${answer.alert.id} ${answer.alert.status}\n`);
    },
  );

  pageOptions(
    withAdminOptions(
      alerts.command("occurrences").description("every trigger folded into an alert").argument("<alertId>"),
    ),
  ).action(async (id: string, options: ConnectionOptions & PageFlags) => {
    const answer = await adminClient(io, options).listOccurrences(id, pageQuery(options));
    printResult(
      io,
      options.json,
      answer,
      () => formatTable(answer.occurrences, OCCURRENCE_COLUMNS) + printNextCursor(answer),
    );
  });

  withAdminOptions(
    alerts.command("deliveries").description("the notifications sent for an alert").argument("<alertId>"),
  ).action(async (id: string, options: ConnectionOptions) => {
    const answer = await adminClient(io, options).listDeliveries(id);
    printResult(io, options.json, answer, () => formatTable(answer.deliveries, DELIVERY_COLUMNS));
  });

  withAdminOptions(
    alerts.command("retry-delivery").description("send a failed notification again").argument("<deliveryId>"),
  ).action(async (id: string, options: ConnectionOptions) => {
    const answer = await adminClient(io, options).retryDelivery(id);
    printResult(io, options.json, answer, () => formatFields(answer.delivery));
  });

  return alerts;
}
