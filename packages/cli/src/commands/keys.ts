import type { ApiKey, ApiKeyScope } from "@pulsegate/sdk";
import { Command, Option } from "commander";
import type { CliIo } from "../cli-io.ts";
import { adminClient, type ConnectionOptions, withAdminOptions } from "../connection.ts";
import { type Column, formatFields, formatTable, printResult } from "../print-output.ts";
import { type PageFlags, pageOptions, pageQuery, printNextCursor } from "./page-options.ts";

const COLUMNS: Column<ApiKey>[] = [
  ["ID", (k) => k.id],
  ["NAME", (k) => k.name],
  ["SCOPE", (k) => k.scope],
  ["PREFIX", (k) => k.tokenPrefix],
  ["LAST USED", (k) => k.lastUsedAt],
  ["REVOKED", (k) => k.revokedAt],
];

export function keysCommand(io: CliIo): Command {
  const keys = new Command("keys").description("team API keys: tokens limited to one team, read-only or read-write");

  withAdminOptions(
    keys
      .command("create")
      .description("create a key; prints its token, shown this once only")
      .argument("<teamId>")
      .argument("<name>")
      .addOption(
        new Option("--scope <scope>", "read: see only; write: change too").choices(["read", "write"]).default("read"),
      ),
  ).action(async (teamId: string, name: string, options: ConnectionOptions & { scope: ApiKeyScope }) => {
    const answer = await adminClient(io, options).createApiKey(teamId, { name, scope: options.scope });
    printResult(
      io,
      options.json,
      answer,
      () => `${formatFields(answer.apiKey)}\ntoken (shown once, store it now): ${answer.token}\n`,
    );
  });

  pageOptions(withAdminOptions(keys.command("list").description("a team's keys").argument("<teamId>"))).action(
    async (teamId: string, options: ConnectionOptions & PageFlags) => {
      const answer = await adminClient(io, options).listApiKeys(teamId, pageQuery(options));
      printResult(io, options.json, answer, () => formatTable(answer.apiKeys, COLUMNS) + printNextCursor(answer));
    },
  );

  withAdminOptions(keys.command("show").description("show a key (never its token)").argument("<keyId>")).action(
    async (id: string, options: ConnectionOptions) => {
      const answer = await adminClient(io, options).getApiKey(id);
      printResult(io, options.json, answer, () => formatFields(answer.apiKey));
    },
  );

  withAdminOptions(
    keys.command("revoke").description("revoke a key: its token stops working at once").argument("<keyId>"),
  ).action(async (id: string, options: ConnectionOptions) => {
    const answer = await adminClient(io, options).revokeApiKey(id);
    printResult(io, options.json, answer, () => `${answer.apiKey.id} revoked at ${answer.apiKey.revokedAt ?? "-"}\n`);
  });

  return keys;
}
