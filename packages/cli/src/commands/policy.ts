import type { NotificationPolicy } from "@pulsegate/sdk";
import { Command, Option } from "commander";
import type { CliIo } from "../cli-io.ts";
import { adminClient, type ConnectionOptions, withAdminOptions } from "../connection.ts";
import { json } from "../option-parsers.ts";
import { printResult } from "../print-output.ts";

const describe = (policy: NotificationPolicy | null) =>
  policy === null
    ? "no policy: every enabled channel gets every notification\n"
    : policy.routes.map((route) => `${route.severities.join(",")} -> ${route.channelIds.join(",")}\n`).join("");

export function policyCommand(io: CliIo): Command {
  const policy = new Command("policy").description(
    "a team's notification policy: which severities go to which channels",
  );

  withAdminOptions(policy.command("show").description("the team's policy").argument("<teamId>")).action(
    async (teamId: string, options: ConnectionOptions) => {
      const answer = await adminClient(io, options).getNotificationPolicy(teamId);
      printResult(io, options.json, answer, () => describe(answer.policy));
    },
  );

  withAdminOptions(
    policy
      .command("set")
      .description("replace the team's policy")
      .argument("<teamId>")
      .addOption(
        new Option(
          "--routes <json>",
          'the routes, e.g. \'[{"severities":["sev0","sev1"],"channelIds":["<channel id>"]}]\'',
        )
          .argParser(json("array"))
          .makeOptionMandatory(),
      ),
  ).action(async (teamId: string, options: ConnectionOptions & { routes: NotificationPolicy["routes"] }) => {
    const answer = await adminClient(io, options).putNotificationPolicy(teamId, options.routes);
    printResult(io, options.json, answer, () => describe(answer.policy));
  });

  withAdminOptions(
    policy
      .command("delete")
      .description("remove the policy: every enabled channel gets everything")
      .argument("<teamId>"),
  ).action(async (teamId: string, options: ConnectionOptions) => {
    await adminClient(io, options).deleteNotificationPolicy(teamId);
    printResult(io, options.json, { deleted: teamId }, () => `policy of ${teamId} deleted\n`);
  });

  return policy;
}
