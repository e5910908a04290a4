import {
  type FilterRule,
  SEVERITIES,
  type Severity,
  SIGNATURE_SCHEMES,
  type SignatureScheme,
  type UpdateWebhookInput,
  WEBHOOK_SOURCES,
  type Webhook,
  type WebhookSource,
} from "@pulsegate/sdk";
import { Command, Option } from "commander";
import type { CliIo } from "../cli-io.ts";
import { adminClient, type ConnectionOptions, withAdminOptions } from "../connection.ts";
import { UsageError } from "../exit-codes.ts";
import { integer, json } from "../option-parsers.ts";
import { type Column, formatFields, formatTable, printResult } from "../print-output.ts";

type WebhookFlags = {
  name?: string;
  severity?: Severity;
  enable?: boolean;
  disable?: boolean;
  filterRules?: FilterRule[];
  rateLimit?: number;
  reopenWindow?: number;
  signatureScheme?: SignatureScheme;
};

const COLUMNS: Column<Webhook>[] = [
  ["ID", (w) => w.id],
  ["NAME", (w) => w.name],
  ["SOURCE", (w) => w.source ?? "-"],
  ["ENABLED", (w) => w.enabled],
  ["SEVERITY", (w) => w.defaultSeverity],
  ["RULES", (w) => w.filterRules.length],
  ["WEBHOOK URL", (w) => w.webhookUrl],
];

const fieldOptions = (command: Command) =>
  command
    .addOption(new Option("--severity <sev>", "default severity of its alerts").choices(SEVERITIES))
    .addOption(
      new Option(
        "--filter-rules <json>",
        'accept conditions, e.g. \'[{"field":"metadata.env","op":"==","value":"prod"}]\'',
      ).argParser(json("array")),
    )
    .addOption(new Option("--rate-limit <n>", "triggers a minute").argParser(integer(1)))
    .addOption(
      new Option("--reopen-window <s>", "seconds after a resolve in which a trigger reopens").argParser(integer(0)),
    )
    .addOption(
      new Option(
        "--signature-scheme <scheme>",
        "how triggers are signed: pulsegate (X-Webhook-Signature, the default) or standard-webhooks (key: the team's whsec_ secret); not for --source alertmanager",
      ).choices(SIGNATURE_SCHEMES),
    );

function webhookInput(flags: WebhookFlags): UpdateWebhookInput {
  if (flags.enable && flags.disable) throw new UsageError("--enable and --disable contradict each other.");
  return {
    ...(flags.name === undefined ? {} : { name: flags.name }),
    ...(flags.severity === undefined ? {} : { defaultSeverity: flags.severity }),
    ...(flags.enable ? { enabled: true } : flags.disable ? { enabled: false } : {}),
    ...(flags.filterRules === undefined ? {} : { filterRules: flags.filterRules }),
    ...(flags.rateLimit === undefined ? {} : { rateLimitPerMinute: flags.rateLimit }),
    ...(flags.reopenWindow === undefined ? {} : { reopenWindowSeconds: flags.reopenWindow }),
    ...(flags.signatureScheme === undefined ? {} : { signatureScheme: flags.signatureScheme }),
  };
}

export function webhooksCommand(io: CliIo): Command {
  const webhooks = new Command("webhooks").description(
    "webhooks: where signed alert triggers (or Alertmanager's payloads) arrive",
  );

  fieldOptions(
    withAdminOptions(
      webhooks
        .command("create")
        .description("create a webhook; prints its trigger URL (and an Alertmanager webhook's bearer token, once)")
        .argument("<teamId>")
        .argument("<name>")
        .option("--disable", "create it disabled (answered 404 until enabled)")
        .addOption(
          new Option(
            "--source <source>",
            "signed: triggers signed with the team's secret; alertmanager: Prometheus Alertmanager's payloads, with a bearer token",
          )
            .choices(WEBHOOK_SOURCES)
            .default("signed"),
        ),
    ),
  ).action(
    async (teamId: string, name: string, options: ConnectionOptions & WebhookFlags & { source: WebhookSource }) => {
      const answer = await adminClient(io, options).createWebhook(teamId, {
        ...webhookInput(options),
        name,
        ...(options.source === "signed" ? {} : { source: options.source }),
      });
      printResult(
        io,
        options.json,
        answer,
        () =>
          formatFields(answer.webhook) +
          (answer.bearerToken ? `bearer token (shown once, store it now): ${answer.bearerToken}\n` : ""),
      );
    },
  );

  withAdminOptions(
    webhooks
      .command("rotate-token")
      .description("an Alertmanager webhook's new bearer token; the previous one keeps working for the grace period")
      .argument("<webhookId>")
      .addOption(
        new Option(
          "--grace-seconds <s>",
          "how long the previous token stays valid (0–604800; default 86400)",
        ).argParser(integer(0)),
      ),
  ).action(async (id: string, options: ConnectionOptions & { graceSeconds?: number }) => {
    const input = options.graceSeconds === undefined ? {} : { graceSeconds: options.graceSeconds };
    const answer = await adminClient(io, options).rotateWebhookBearerToken(id, input);
    printResult(
      io,
      options.json,
      answer,
      () =>
        `new bearer token (shown once, store it now): ${answer.bearerToken}\n` +
        `previous token valid until: ${answer.previousValidUntil ?? "-"}\n`,
    );
  });

  withAdminOptions(webhooks.command("list").description("a team's webhooks").argument("<teamId>")).action(
    async (teamId: string, options: ConnectionOptions) => {
      const answer = await adminClient(io, options).listWebhooks(teamId);
      printResult(io, options.json, answer, () => formatTable(answer.webhooks, COLUMNS));
    },
  );

  withAdminOptions(webhooks.command("show").description("show a webhook").argument("<webhookId>")).action(
    async (id: string, options: ConnectionOptions) => {
      const answer = await adminClient(io, options).getWebhook(id);
      printResult(io, options.json, answer, () => formatFields(answer.webhook));
    },
  );

  fieldOptions(
    withAdminOptions(
      webhooks
        .command("update")
        .description("change a webhook; --disable makes its URL answer 404, --enable brings it back")
        .argument("<webhookId>")
        .option("--name <name>", "a new name")
        .option("--enable", "accept triggers again")
        .option("--disable", "refuse triggers (404)"),
    ),
  ).action(async (id: string, options: ConnectionOptions & WebhookFlags) => {
    const input = webhookInput(options);
    if (Object.keys(input).length === 0) throw new UsageError("Nothing to change: pass at least one option.");
    const answer = await adminClient(io, options).updateWebhook(id, input);
    printResult(io, options.json, answer, () => formatFields(answer.webhook));
  });

  withAdminOptions(
    webhooks.command("delete").description("delete a webhook: its triggers answer 404 at once").argument("<webhookId>"),
  ).action(async (id: string, options: ConnectionOptions) => {
    await adminClient(io, options).deleteWebhook(id);
    printResult(io, options.json, { deleted: id }, () => `deleted ${id}\n`);
  });

  return webhooks;
}
