import { SDK_VERSION } from "@pulsegate/sdk";
import { Command } from "commander";
import type { CliIo } from "./cli-io.ts";
import { alertsCommand } from "./commands/alerts.ts";
import { auditCommand } from "./commands/audit.ts";
import { channelsCommand } from "./commands/channels.ts";
import { kekCommand } from "./commands/kek.ts";
import { keysCommand } from "./commands/keys.ts";
import { monitorsCommand } from "./commands/monitors.ts";
import { pingCommand } from "./commands/ping.ts";
import { policyCommand } from "./commands/policy.ts";
import { resolveCommand } from "./commands/resolve.ts";
import { runCommand } from "./commands/run.ts";
import { silencesCommand } from "./commands/silences.ts";
import { teamsCommand } from "./commands/teams.ts";
import { triggerCommand } from "./commands/trigger.ts";
import { webhooksCommand } from "./commands/webhooks.ts";
import { EXIT, exitCodeFor } from "./exit-codes.ts";
import { printError } from "./print-output.ts";

const HELP_FOOTER = `
Environment:
  PULSEGATE_URL     the gateway's base URL, e.g. https://pulsegate.example (--url)
  PULSEGATE_TOKEN   the admin token or a team API key, for operator commands (--token)
  PULSEGATE_SECRET  the team's webhook secret, for trigger, ping and run (--secret)

Exit codes:
  0  done
  1  usage: a bad command line or a missing setting
  2  refused: Pulsegate answered 4xx (unknown id, invalid token or signature, invalid body, limit)
  3  unavailable: no answer or 5xx, after the retries
  run exits with the wrapped command's own code.`;

/** Every command of the tree, depth first. */
function* allCommands(command: Command): Generator<Command> {
  yield command;
  for (const sub of command.commands) yield* allCommands(sub);
}

/** The `pulsegate` command tree, writing to `io`; nothing runs until it is parsed. */
export function buildProgram(io: CliIo): Command {
  const program = new Command("pulsegate")
    .description("Pulsegate from the command line: operate teams, webhooks, monitors and alerts; trigger and ping")
    .version(SDK_VERSION)
    .addHelpText("after", HELP_FOOTER);
  for (const make of [
    teamsCommand,
    webhooksCommand,
    monitorsCommand,
    alertsCommand,
    channelsCommand,
    policyCommand,
    silencesCommand,
    keysCommand,
    auditCommand,
    kekCommand,
    triggerCommand,
    resolveCommand,
    pingCommand,
    runCommand,
  ]) {
    program.addCommand(make(io));
  }
  // Commands built apart and added do not inherit these: set them on each.
  for (const command of allCommands(program)) {
    command
      .exitOverride()
      .showHelpAfterError("(add --help for usage)")
      .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) });
  }
  return program;
}

/** Parses and runs one command line (without the node and script arguments); resolves with the exit code. */
export async function runCli(args: string[], io: CliIo): Promise<number> {
  const program = buildProgram(io);
  let json = false;
  program.hook("preAction", (_program, action) => {
    json = Boolean(action.opts().json);
    // Only `run` answers signals itself (with a down ping); any other command ends on one at once.
    if (action.name() !== "run") io.signals?.release();
  });
  try {
    await program.parseAsync(args, { from: "user" });
    return io.exitCode ?? EXIT.ok;
  } catch (error) {
    // Commander has already printed its own errors (and help, which is not one).
    if (!(error instanceof Error && error.name === "CommanderError")) printError(io, json, error);
    return exitCodeFor(error);
  }
}
