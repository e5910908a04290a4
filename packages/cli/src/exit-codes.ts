import { PulsegateError } from "@pulsegate/sdk";
import { CommanderError } from "commander";

/** What `pulsegate` exits with, for scripts (README, "Command line and SDK"). */
export const EXIT = {
  ok: 0,
  /** A bad command line, a missing setting (URL, token, secret), a malformed value. */
  usage: 1,
  /** Pulsegate answered with a 4xx: unknown id, invalid token or signature, invalid body, limit reached. */
  refused: 2,
  /** No answer, or a 5xx (503 once retries are spent): trying later may work. */
  unavailable: 3,
} as const;

/** A command line that cannot be carried out as written. */
export class UsageError extends Error {
  override name = "UsageError";
}

export function exitCodeFor(error: unknown): number {
  if (error instanceof PulsegateError) return error.unavailable ? EXIT.unavailable : EXIT.refused;
  if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  return EXIT.usage;
}
