// Caught before anything else loads (commands, the SDK, commander): a signal that comes while the
// CLI is still starting must reach `run` too. The rest is imported only once the latch is in place.
import { SignalLatch } from "./signal-latch.ts";

const signals = new SignalLatch();
const { processIo } = await import("./cli-io.ts");
const { runCli } = await import("./program.ts");

// A reader that stops early (`pulsegate alerts list … | head -1`) is not an error of ours;
// `run` keeps going, so its ping is still sent.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
  });
}

process.exitCode = await runCli(process.argv.slice(2), { ...processIo(), signals });
// A signal caught by a command that did not answer it (help, a usage error) ends the process now.
signals.release();
