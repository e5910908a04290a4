import { processIo } from "./cli-io.ts";
import { runCli } from "./program.ts";

// A reader that stops early (`pulsegate alerts list … | head -1`) is not an error of ours;
// `run` keeps going, so its ping is still sent.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
  });
}

process.exitCode = await runCli(process.argv.slice(2), processIo());
