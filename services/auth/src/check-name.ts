import { nameProblem } from "@pulsegate/contract/text";
import { authErrors } from "./errors.ts";

/**
 * A team's or an API key's name, trimmed and checked by the one rule for names (@pulsegate/text),
 * with TEAM_LIMITS.nameMaxLength or API_KEY_LIMITS.nameMaxLength.
 */
export function checkName(value: string, maxLength: number): string {
  const name = value.trim();
  const problem = nameProblem(name, maxLength);
  if (problem) throw authErrors.invalidArgument(problem.field, problem.message);
  return name;
}
