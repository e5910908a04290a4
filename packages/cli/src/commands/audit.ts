import type { AuditEntry } from "@pulsegate/sdk";
import { Command } from "commander";
import type { CliIo } from "../cli-io.ts";
import { adminClient, type ConnectionOptions, withAdminOptions } from "../connection.ts";
import { type Column, formatTable, printResult } from "../print-output.ts";
import { type PageFlags, pageOptions, pageQuery, printNextCursor } from "./page-options.ts";

const COLUMNS: Column<AuditEntry>[] = [
  ["AT", (e) => e.at],
  ["ACTOR", (e) => (e.actor.kind === "api_key" ? `key ${e.actor.name ?? e.actor.id}` : "admin")],
  ["ACTION", (e) => e.action],
  ["TARGET", (e) => e.target.id],
  ["DETAILS", (e) => (Object.keys(e.details).length === 0 ? null : e.details)],
];

export function auditCommand(io: CliIo): Command {
  return pageOptions(
    withAdminOptions(
      new Command("audit")
        .description("a team's audit log, newest first: who changed what (secrets, keys, webhooks, monitors, alerts)")
        .argument("<teamId>"),
    ),
  ).action(async (teamId: string, options: ConnectionOptions & PageFlags) => {
    const answer = await adminClient(io, options).listAuditLog(teamId, pageQuery(options));
    printResult(io, options.json, answer, () => formatTable(answer.entries, COLUMNS) + printNextCursor(answer));
  });
}
