import { TEAM_LIMITS } from "@pulsegate/limits";
import { authErrors } from "./errors.ts";

/** A team's or an API key's name, trimmed: required, at most TEAM_LIMITS.nameMaxLength code points. */
export function checkName(value: string): string {
  const name = value.trim();
  if (name.length === 0) throw authErrors.invalidArgument("name", "name is required.");
  if ([...name].length > TEAM_LIMITS.nameMaxLength) {
    throw authErrors.invalidArgument("name", `name must be at most ${TEAM_LIMITS.nameMaxLength} characters.`);
  }
  return name;
}
