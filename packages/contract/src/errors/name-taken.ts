import { ConflictError } from "./domain-errors.ts";

/** The code of a name already in use where names are unique (docs/decisions.md, "Names"). */
export const NAME_TAKEN_CODE = "name_taken";

/** What holds names unique: every team, or one team's resources of a kind. */
export type NameScope = "team" | "webhook" | "monitor" | "channel" | "silence" | "API key";

/**
 * A create or rename that would give a second team, or a second resource of a kind within its
 * team, a name already in use. Raised when the unique index refuses the row, so two racing
 * requests get one success and one of these.
 */
export function nameTakenError(scope: NameScope): ConflictError {
  const sentence =
    scope === "team"
      ? "A team with that name already exists; team names are unique."
      : `The team already has ${scope === "API key" ? "an" : "a"} ${scope} with that name; names are unique within a team.`;
  return new ConflictError(NAME_TAKEN_CODE, sentence);
}
