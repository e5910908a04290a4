/** What a command reads and writes besides the network: the two output streams, and an exit code to set. */
export type CliIo = {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Set by a command whose exit code is not just "it worked" (run: the wrapped command's). */
  exitCode?: number;
};

export const processIo = (): CliIo => ({ stdout: process.stdout, stderr: process.stderr });
