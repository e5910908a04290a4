import { spawn } from "node:child_process";
import { constants } from "node:os";
import type { Readable, Writable } from "node:stream";
import { OutputTail } from "./output-tail.ts";
import type { SignalLatch } from "./signal-latch.ts";

export type WrappedOutcome = {
  /** The child's exit code; null when a signal ended it or it never started. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the command could not be started (not found, not executable). */
  startError: NodeJS.ErrnoException | null;
  /**
   * The signal this process was sent before the command ended (SIGTERM, SIGINT, SIGHUP): the run
   * was cut short by it, whatever the command did with it. When it came before the command could
   * start, the command never ran.
   */
  interruptedBy: NodeJS.Signals | null;
  durationMs: number;
  tail: OutputTail;
};

/**
 * Copies a child's stream to ours (pausing it while ours is full) and into the tail.
 * Once ours is gone (a reader that stopped: `| head`), the child's output is still
 * read, for the tail and so that the child never blocks on a full pipe.
 */
function tee(source: Readable | null, sink: NodeJS.WritableStream, tail: OutputTail): void {
  const out = sink as Writable;
  source?.on("data", (chunk: Buffer) => {
    tail.push(chunk);
    if (out.destroyed || out.writableEnded) return;
    if (!out.write(chunk)) {
      source.pause();
      const resume = () => {
        for (const event of ["drain", "close", "error"]) out.off(event, resume);
        source.resume();
      };
      for (const event of ["drain", "close", "error"]) out.once(event, resume);
    }
  });
}

/** The outcome of a run whose command was never started: a signal came first. */
export function interruptedBeforeStart(signal: NodeJS.Signals, tailBytes = 1024): WrappedOutcome {
  return {
    exitCode: null,
    signal: null,
    startError: null,
    interruptedBy: signal,
    durationMs: 0,
    tail: new OutputTail(tailBytes),
  };
}

/**
 * Runs `command` with our stdin, copying its stdout and stderr to ours while
 * keeping the tail of both. SIGTERM and SIGHUP caught by `signals` are passed
 * on; a terminal's Ctrl-C already reaches the child (same process group), so
 * SIGINT is not sent twice. Either way the run counts as interrupted.
 */
export function runWrapped(
  command: string,
  args: string[],
  output: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
  signals: SignalLatch,
  tailBytes = 1024,
): Promise<WrappedOutcome> {
  const tail = new OutputTail(tailBytes);
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["inherit", "pipe", "pipe"] });
    const stopForwarding = signals.onSignal((signal) => {
      if (signal !== "SIGINT") child.kill(signal);
    });
    const finish = (outcome: Pick<WrappedOutcome, "exitCode" | "signal" | "startError">) => {
      stopForwarding();
      const durationMs = Math.round(performance.now() - started);
      resolve({ ...outcome, interruptedBy: signals.received, durationMs, tail });
    };
    tee(child.stdout, output.stdout, tail);
    tee(child.stderr, output.stderr, tail);
    child.once("error", (error: NodeJS.ErrnoException) => {
      // Only a failed start reaches here with no exit to follow.
      if (child.pid === undefined) finish({ exitCode: null, signal: null, startError: error });
    });
    // "close" comes after both pipes are drained, so the tail is complete.
    child.once("close", (code, signal) => {
      if (child.pid !== undefined) finish({ exitCode: code, signal, startError: null });
    });
  });
}

/**
 * What a shell would exit with: the code, 128 + the signal's number (the one this process was sent
 * first, else the one that ended the command), 127 not found, 126 not runnable.
 */
export function shellExitCode(
  outcome: Pick<WrappedOutcome, "exitCode" | "signal" | "startError" | "interruptedBy">,
): number {
  if (outcome.interruptedBy) return 128 + (constants.signals[outcome.interruptedBy] ?? 0);
  if (outcome.startError) return outcome.startError.code === "ENOENT" ? 127 : 126;
  if (outcome.signal) return 128 + (constants.signals[outcome.signal] ?? 0);
  return outcome.exitCode ?? 1;
}
