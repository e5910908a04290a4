import { HttpError } from "../errors.ts";

const invalid = (message: string) =>
  new HttpError("invalid_request", message, { details: [{ field: "query.dryRun", message }] });

/**
 * `?dryRun=true` on a signed public endpoint: answer what would happen and
 * write nothing. The query is not covered by the signature; that is harmless
 * here (a dry run changes nothing), and a captured dry run is as replayable as
 * any request. Only `true` and `false` are accepted; `others` lists the other
 * query parameters an endpoint tolerates (none: any other is refused with
 * `otherwise`, the endpoint's own error).
 */
export function readDryRun(
  query: unknown,
  options: { othersAllowed: boolean; otherwise?: () => HttpError } = { othersAllowed: true },
): boolean {
  const entries = Object.entries((query ?? {}) as Record<string, unknown>);
  let dryRun = false;
  for (const [name, value] of entries) {
    if (name !== "dryRun") {
      if (!options.othersAllowed) throw options.otherwise?.() ?? invalid(`Unknown query parameter ${name}.`);
      continue;
    }
    if (value === "true") dryRun = true;
    else if (value !== "false") throw invalid("dryRun must be true or false, given once.");
  }
  return dryRun;
}

/** The message of every dry-run answer. */
export const DRY_RUN_MESSAGE = "Dry run: nothing was written and nobody was notified.";
