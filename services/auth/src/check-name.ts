import { authErrors } from "./errors.ts";

/**
 * A team's or an API key's name, trimmed: required, at most `maxLength` code points
 * (TEAM_LIMITS.nameMaxLength or API_KEY_LIMITS.nameMaxLength).
 */
export function checkName(value: string, maxLength: number): string {
  const name = value.trim();
  if (name.length === 0) throw authErrors.invalidArgument("name", "name is required.");
  if ([...name].length > maxLength) {
    throw authErrors.invalidArgument("name", `name must be at most ${maxLength} characters.`);
  }
  return name;
}
