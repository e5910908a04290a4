import type { TextProblem } from "./unstorable-text.ts";

/**
 * C0 controls (U+0000 to U+001F) and DEL (U+007F). A name is shown as it was given: in badges
 * (XML 1.0 cannot hold most of these), chat messages, the dashboard and terminals (an ESC starts
 * a terminal escape sequence), so none of them may be inside one.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/**
 * The one rule for the name an admin gives a team, webhook, monitor, channel, silence or API
 * key, already trimmed by the caller: required, at most `maxLength` code points (the resource's
 * `nameMaxLength` in @pulsegate/limits), no control characters. Null when the name is fine.
 */
export function nameProblem(name: string, maxLength: number, field = "name"): TextProblem | null {
  if (name.length === 0) return { field, message: `${field} is required.` };
  if (CONTROL_CHARACTER.test(name)) {
    return { field, message: `${field} must not contain control characters (U+0000 to U+001F, U+007F).` };
  }
  if (name.length > maxLength && [...name].length > maxLength) {
    return { field, message: `${field} must be at most ${maxLength} characters.` };
  }
  return null;
}
