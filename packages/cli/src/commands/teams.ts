import type { Team } from "@pulsegate/sdk";
import { Command, Option } from "commander";
import type { CliIo } from "../cli-io.ts";
import { adminClient, type ConnectionOptions, withAdminOptions } from "../connection.ts";
import { UsageError } from "../exit-codes.ts";
import { integer, timestamp, timestampOrNever } from "../option-parsers.ts";
import { type Column, formatFields, formatTable, printResult } from "../print-output.ts";
import { type PageFlags, pageOptions, pageQuery, printNextCursor } from "./page-options.ts";

type TeamFields = {
  name?: string;
  /** An ISO date-time, or "never" (sent as null). */
  subscriptionExpiresAt?: string;
  alertQuota?: number;
  heartbeatQuota?: number;
};

const quotaOptions = (command: Command) =>
  command
    .addOption(new Option("--alert-quota <n>", "alerts a month (0: unlimited)").argParser(integer(0)))
    .addOption(new Option("--heartbeat-quota <n>", "heartbeat pings a month (0: unlimited)").argParser(integer(0)));

function teamInput(options: TeamFields) {
  return {
    ...(options.name === undefined ? {} : { name: options.name }),
    ...(options.subscriptionExpiresAt === undefined
      ? {}
      : { subscriptionExpiresAt: options.subscriptionExpiresAt === "never" ? null : options.subscriptionExpiresAt }),
    ...(options.alertQuota === undefined ? {} : { alertQuotaMonthly: options.alertQuota }),
    ...(options.heartbeatQuota === undefined ? {} : { heartbeatQuotaMonthly: options.heartbeatQuota }),
  };
}

const showTeam = (team: Team) => formatFields(team);

const COLUMNS: Column<Team>[] = [
  ["ID", (t) => t.id],
  ["NAME", (t) => t.name],
  ["EXPIRES", (t) => t.subscriptionExpiresAt],
  ["ALERT QUOTA", (t) => t.alertQuotaMonthly],
  ["HEARTBEAT QUOTA", (t) => t.heartbeatQuotaMonthly],
  ["CREATED", (t) => t.createdAt],
];

export function teamsCommand(io: CliIo): Command {
  const teams = new Command("teams").description("create, list, show and change teams; rotate their webhook secret");

  quotaOptions(
    withAdminOptions(
      teams
        .command("create")
        .description("create a team; prints its webhook secret, shown this once only")
        .argument("<name>", "the team's name")
        .addOption(
          new Option("--subscription-expires-at <date>", "ISO 8601 date-time; none: never expires").argParser(
            timestamp,
          ),
        ),
    ),
  ).action(async (name: string, options: ConnectionOptions & TeamFields) => {
    const created = await adminClient(io, options).createTeam({
      ...(teamInput(options) as { subscriptionExpiresAt?: string }),
      name,
    });
    printResult(
      io,
      options.json,
      created,
      () =>
        `${showTeam(created.team)}\nwebhook secret (shown once, store it now): ${created.webhookSecret}\n` +
        `the same key for Standard Webhooks libraries: ${created.standardWebhooksSecret}\n` +
        `export PULSEGATE_SECRET=${created.webhookSecret}\n`,
    );
  });

  pageOptions(
    withAdminOptions(teams.command("list").description("every team, oldest first (the admin token only)")),
  ).action(async (options: ConnectionOptions & PageFlags) => {
    const answer = await adminClient(io, options).listTeams(pageQuery(options));
    printResult(io, options.json, answer, () => formatTable(answer.teams, COLUMNS) + printNextCursor(answer));
  });

  withAdminOptions(teams.command("show").description("show a team").argument("<teamId>")).action(
    async (teamId: string, options: ConnectionOptions) => {
      const answer = await adminClient(io, options).getTeam(teamId);
      printResult(io, options.json, answer, () => showTeam(answer.team));
    },
  );

  quotaOptions(
    withAdminOptions(
      teams
        .command("update")
        .description("change a team's name, subscription or quotas")
        .argument("<teamId>")
        .option("--name <name>", "a new name")
        .addOption(
          new Option("--subscription-expires-at <date>", 'ISO 8601 date-time, or "never"').argParser(timestampOrNever),
        ),
    ),
  ).action(async (teamId: string, options: ConnectionOptions & TeamFields) => {
    const input = teamInput(options);
    if (Object.keys(input).length === 0) throw new UsageError("Nothing to change: pass at least one option.");
    const answer = await adminClient(io, options).updateTeam(teamId, input);
    printResult(io, options.json, answer, () => showTeam(answer.team));
  });

  withAdminOptions(
    teams
      .command("rotate-secret")
      .description("write a new webhook secret; the previous one keeps working for the grace period")
      .argument("<teamId>")
      .addOption(
        new Option(
          "--grace-seconds <s>",
          "how long the previous secret stays valid (0–604800; default 86400)",
        ).argParser(integer(0)),
      ),
  ).action(async (teamId: string, options: ConnectionOptions & { graceSeconds?: number }) => {
    const input = options.graceSeconds === undefined ? {} : { graceSeconds: options.graceSeconds };
    const answer = await adminClient(io, options).rotateSecret(teamId, input);
    printResult(
      io,
      options.json,
      answer,
      () =>
        `new webhook secret (shown once, store it now): ${answer.webhookSecret}\n` +
        `the same key for Standard Webhooks libraries: ${answer.standardWebhooksSecret}\n` +
        `previous secret valid until: ${answer.previousValidUntil ?? "-"}\n`,
    );
  });

  withAdminOptions(
    teams
      .command("delete")
      .description("delete a team and everything of it (its pings and triggers answer 404 at once)")
      .argument("<teamId>"),
  ).action(async (id: string, options: ConnectionOptions) => {
    await adminClient(io, options).deleteTeam(id);
    printResult(io, options.json, { deleted: id }, () => `deleted ${id}\n`);
  });

  withAdminOptions(
    teams.command("usage").description("this month's alerts and heartbeats against the quotas").argument("<teamId>"),
  ).action(async (id: string, options: ConnectionOptions) => {
    const answer = await adminClient(io, options).getUsage(id);
    printResult(io, options.json, answer, () => formatFields(answer));
  });

  return teams;
}
