import { spawn } from "node:child_process";
import { constants } from "node:os";
import type { Readable, Writable } from "node:stream";
import { OutputTail } from "./output-tail.ts";

export type WrappedOutcome = {
  /** The child's exit code; null when a signal ended it or it never started. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the command could not be started (not found, not executable). */
  startError: NodeJS.ErrnoException | null;
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

/**
 * Runs `command` with our stdin, copying its stdout and stderr to ours while
 * keeping the tail of both. SIGTERM and SIGHUP sent to this process are passed
 * on; a terminal's Ctrl-C already reaches the child (same process group), so
 * SIGINT is only kept from ending this process before the child has.
 */
export function runWrapped(
  command: string,
  args: string[],
  output: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
  tailBytes = 1024,
): Promise<WrappedOutcome> {
  const tail = new OutputTail(tailBytes);
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["inherit", "pipe", "pipe"] });
    const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
    const handlers = new Map<NodeJS.Signals, () => void>([
      ["SIGTERM", forward("SIGTERM")],
      ["SIGHUP", forward("SIGHUP")],
      ["SIGINT", () => {}],
    ]);
    for (const [signal, handler] of handlers) process.on(signal, handler);
    const finish = (outcome: Omit<WrappedOutcome, "durationMs" | "tail">) => {
      for (const [signal, handler] of handlers) process.off(signal, handler);
      resolve({ ...outcome, durationMs: Math.round(performance.now() - started), tail });
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

/** What a shell would exit with: the code, 128 + the signal's number, 127 not found, 126 not runnable. */
export function shellExitCode(outcome: Pick<WrappedOutcome, "exitCode" | "signal" | "startError">): number {
  if (outcome.startError) return outcome.startError.code === "ENOENT" ? 127 : 126;
  if (outcome.signal) return 128 + (constants.signals[outcome.signal] ?? 0);
  return outcome.exitCode ?? 1;
}
