import { PulsegateAdmin, PulsegateClient, type RetryEvent } from "@pulsegate/sdk";
import { type Command, Option } from "commander";
import type { CliIo } from "./cli-io.ts";
import { UsageError } from "./exit-codes.ts";
import { integer } from "./option-parsers.ts";

/** Options every command that talks to Pulsegate takes. */
export type ConnectionOptions = {
  url?: string;
  token?: string;
  secret?: string;
  json: boolean;
  timeout: number;
  retries: number;
};

function withTransport(command: Command): Command {
  return command
    .addOption(new Option("--json", "print the answer as JSON (machine readable)").default(false))
    .addOption(new Option("--timeout <ms>", "each attempt's time limit").argParser(integer(1)).default(10_000))
    .addOption(
      new Option("--retries <n>", "retries on 429, 503 and no answer (Retry-After honoured)")
        .argParser(integer(0))
        .default(3),
    );
}

/** --url, --token (or PULSEGATE_URL, PULSEGATE_TOKEN), --json, --timeout, --retries. */
export function withAdminOptions(command: Command): Command {
  return withTransport(
    command
      .addOption(new Option("--url <url>", "the gateway's base URL").env("PULSEGATE_URL"))
      .addOption(new Option("--token <token>", "the admin token or a team API key").env("PULSEGATE_TOKEN")),
  );
}

/** --url (needed only for bare tokens), --secret (or PULSEGATE_SECRET), --json, --timeout, --retries. */
export function withCallerOptions(command: Command): Command {
  return withTransport(
    command
      .addOption(new Option("--url <url>", "the gateway's base URL (not needed with a full URL)").env("PULSEGATE_URL"))
      .addOption(
        new Option("--secret <secret>", "the team's webhook secret (prefer the variable: flags show in ps)").env(
          "PULSEGATE_SECRET",
        ),
      ),
  );
}

function retryReporter(io: CliIo, retries: number) {
  return (event: RetryEvent) => {
    const answer = event.status === 0 ? event.code : `HTTP ${event.status} ${event.code}`;
    io.stderr.write(
      `pulsegate: ${answer}; retrying in ${(event.delayMs / 1000).toFixed(1)} s (${event.retry}/${retries})\n`,
    );
  };
}

export function adminClient(io: CliIo, options: ConnectionOptions): PulsegateAdmin {
  if (!options.url) throw new UsageError("No gateway URL: set PULSEGATE_URL or pass --url.");
  if (!options.token) throw new UsageError("No token: set PULSEGATE_TOKEN or pass --token.");
  try {
    return new PulsegateAdmin({
      baseUrl: options.url,
      token: options.token,
      timeoutMs: options.timeout,
      retries: options.retries,
      onRetry: retryReporter(io, options.retries),
    });
  } catch (error) {
    throw new UsageError(`Bad --url/PULSEGATE_URL "${options.url}": ${(error as Error).message}`);
  }
}

export function callerClient(io: CliIo, options: ConnectionOptions): PulsegateClient {
  if (!options.secret) throw new UsageError("No webhook secret: set PULSEGATE_SECRET or pass --secret.");
  return new PulsegateClient({
    baseUrl: options.url || undefined,
    secret: options.secret,
    timeoutMs: options.timeout,
    retries: options.retries,
    onRetry: retryReporter(io, options.retries),
  });
}
