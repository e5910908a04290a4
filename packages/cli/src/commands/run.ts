import { type PingInput, type PingResult, type PulsegateClient, PulsegateError } from "@pulsegate/sdk";
import { Command } from "commander";
import type { CliIo } from "../cli-io.ts";
import { type ConnectionOptions, callerClient, withCallerOptions } from "../connection.ts";
import { describeError } from "../print-output.ts";
import { interruptedBeforeStart, runWrapped, shellExitCode, type WrappedOutcome } from "../run-wrapped.ts";
import { afterPendingSignals, SignalLatch } from "../signal-latch.ts";

type RunFlags = { groupKey?: string; start?: boolean };

/**
 * Up when the command exited 0 and nobody asked this process to stop; otherwise down, with why
 * (the signal this process was sent comes first) and the end of what the command printed.
 */
export function pingForOutcome(outcome: WrappedOutcome, command: string, groupKey?: string): PingInput {
  const group = groupKey === undefined ? {} : { groupKey };
  const facts = { command, durationMs: outcome.durationMs };
  if (outcome.exitCode === 0 && !outcome.interruptedBy) {
    return { status: "up", ...group, metadata: { ...facts, exitCode: 0 } };
  }
  const signal = outcome.interruptedBy ?? outcome.signal;
  const reason = signal
    ? `signal ${signal}`
    : outcome.startError
      ? `could not start: ${outcome.startError.code ?? outcome.startError.message}`
      : `exit code ${outcome.exitCode}`;
  return {
    status: "down",
    reason,
    ...group,
    metadata: {
      ...facts,
      exitCode: outcome.exitCode,
      signal: outcome.signal,
      outputTail: outcome.tail.text(),
      outputTruncated: outcome.tail.truncated,
    },
  };
}

export function runCommand(io: CliIo): Command {
  return withCallerOptions(
    new Command("run")
      .description("run a command (a cron job), then ping up on exit 0, else down; exits with its code")
      .addHelpText(
        "after",
        "\nThe command's output passes through; its last 1 KB (stdout and stderr together) goes with a down ping\n" +
          "as metadata.outputTail, the reason being `exit code N` or `signal NAME`. The ping is tried again on 429\n" +
          "and 503 (Retry-After honoured) and on no answer; if it still fails, that is said on stderr and the exit\n" +
          "code stays the command's. SIGTERM, SIGINT or SIGHUP sent to pulsegate at any moment before the command\n" +
          "ends (the command not started yet included) ends in a down ping `signal NAME` and exit 128 + N.\n" +
          "Example: pulsegate run $PING -- /usr/local/bin/backup.sh --full",
      )
      .usage("[options] <pingUrl> -- <command> [args...]")
      .argument("<pingUrl>", "the monitor's token, or its full ping URL")
      .argument("<command...>", "the command and its arguments (after --)")
      .option("--group-key <key>", "alert grouping hint sent with the ping")
      .option(
        "--start",
        "send a start signal before the command, so a run that hangs past the monitor's grace is down (run did not finish)",
      ),
  ).action(async (pingUrl: string, commandLine: string[], options: ConnectionOptions & RunFlags) => {
    // Settings are checked before the job runs: a missing secret is a usage error, not a lost ping.
    const client = callerClient(io, options);
    const [command, ...args] = commandLine as [string, ...string[]];
    // A signal sent to this process at any moment from here, or while it was still loading, ends the
    // run with a down ping that names it; the command is not started once one came.
    const signals = (io.signals ?? new SignalLatch()).claim();
    await afterPendingSignals();

    // A start signal makes a job that never finishes visible: the monitor goes down with
    // `run did not finish` once the grace has passed. A failed start is told on stderr; the job runs anyway.
    if (options.start && !signals.received) await sendStart(client, pingUrl, options.groupKey, signals, io);

    const outcome = signals.received
      ? interruptedBeforeStart(signals.received)
      : await runWrapped(command, args, io, signals);
    if (outcome.startError) io.stderr.write(`pulsegate: could not start ${command}: ${outcome.startError.message}\n`);
    const exitCode = shellExitCode(outcome);
    let result: PingResult | null = null;
    try {
      result = await client.ping(pingUrl, pingForOutcome(outcome, command, options.groupKey));
    } catch (error) {
      // The job's own status wins: the failed ping is told on stderr (cron mails it) but not in the exit code.
      if (!(error instanceof PulsegateError) && !(error instanceof TypeError)) throw error;
      io.stderr.write(`pulsegate: the ping after the command failed: ${describeError(error)}\n`);
    }
    const signal = outcome.interruptedBy ?? outcome.signal;
    if (options.json) io.stderr.write(`${JSON.stringify({ exitCode, signal, ping: result })}\n`);
    io.exitCode = exitCode;
    signals.release();
  });
}

/** The start signal; a signal sent to this process meanwhile abandons it (the down ping after it says why). */
async function sendStart(
  client: PulsegateClient,
  pingUrl: string,
  groupKey: string | undefined,
  signals: SignalLatch,
  io: CliIo,
): Promise<void> {
  const abandon = new AbortController();
  const stopListening = signals.onSignal(() => abandon.abort());
  try {
    await client.ping(pingUrl, { status: "start", ...(groupKey ? { groupKey } : {}) }, { signal: abandon.signal });
  } catch (error) {
    if (abandon.signal.aborted) return;
    if (!(error instanceof PulsegateError) && !(error instanceof TypeError)) throw error;
    io.stderr.write(`pulsegate: the start signal failed: ${describeError(error)}\n`);
  } finally {
    stopListening();
  }
}
