import type { SignalLatch } from "./signal-latch.ts";

/** What a command reads and writes besides the network: the two output streams, and an exit code to set. */
export type CliIo = {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Set by a command whose exit code is not just "it worked" (run: the wrapped command's). */
  exitCode?: number;
  /** The ending signals, caught since the process started (main.ts); absent when run in process. */
  signals?: SignalLatch;
};

export const processIo = (): CliIo => ({ stdout: process.stdout, stderr: process.stderr });
