import { HttpError } from "../errors.ts";

const invalid = (field: string, message: string) =>
  new HttpError("invalid_request", message, { details: [{ field, message }] });

/**
 * `?dryRun=true` on a signed public endpoint: answer what would happen and
 * write nothing. The query is not covered by the signature; that is harmless
 * here (a dry run changes nothing), and a captured dry run is as replayable as
 * any request. Only `true` and `false` are accepted, and no other parameter:
 * a misspelt `?dryrun=true` ignored would be sent for real, and anything else
 * in the URL would be unsigned.
 */
export function readDryRun(query: unknown): boolean {
  let dryRun = false;
  for (const [name, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    if (name !== "dryRun") {
      throw invalid(`query.${name}`, `Unknown query parameter ${name}: the only one accepted is dryRun.`);
    }
    if (value === "true") dryRun = true;
    else if (value !== "false") throw invalid("query.dryRun", "dryRun must be true or false, given once.");
  }
  return dryRun;
}

/** The message of every dry-run answer. */
export const DRY_RUN_MESSAGE = "Dry run: nothing was written and nobody was notified.";
