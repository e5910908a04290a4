import { hasVisibleText } from "@pulsegate/contract/text";
import { SEVERITIES } from "@pulsegate/contract/vocabulary";
import { type InexactNumber, inexactNumberProblem } from "./exact-numbers.ts";
import { checkOptionalEnum, checkOptionalString, isPlainObject } from "./field-checks.ts";
import { isValidMetadata } from "./metadata.ts";
import {
  DESCRIPTION_MAX,
  GROUP_KEY_MAX,
  type ParseResult,
  TITLE_MAX,
  type TriggerBody,
  type ValidationDetail,
} from "./request-bodies.ts";

/**
 * Validates an already JSON.parse'd trigger body. All problems are reported.
 * - title: required string, 1..200 code points, with at least one visible character (not only
 *   white space or invisible characters, see hasVisibleText);
 * - description: optional string <= 2000 code points;
 * - severity: optional, one of sev0..sev4;
 * - metadata: optional object, see checkMetadata (<= 102400 bytes, <= 10 levels), holding no
 *   number a double would not keep as sent (`inexactNumbers`, from parseJsonBody);
 * - group_key: optional string <= 200 code points.
 * `null` is a wrong type, not "absent". Unknown top-level fields are ignored and
 * not copied into the result.
 */
export function parseTriggerBody(
  value: unknown,
  inexactNumbers: readonly InexactNumber[] = [],
): ParseResult<TriggerBody> {
  if (!isPlainObject(value)) {
    return {
      ok: false,
      details: [{ field: "body", message: "body must be a JSON object." }],
    };
  }
  const details: ValidationDetail[] = [];

  let title: string | undefined;
  if (value.title === undefined) details.push({ field: "title", message: "title is required." });
  else {
    title = checkOptionalString(value.title, "title", TITLE_MAX, details);
    if (title === "") {
      details.push({ field: "title", message: "title must not be empty." });
      title = undefined;
    } else if (title !== undefined && !hasVisibleText(title)) {
      // A notification whose title shows nothing tells nobody what happened.
      details.push({
        field: "title",
        message: "title must have visible text, not only white space or invisible characters.",
      });
      title = undefined;
    }
  }
  const description = checkOptionalString(value.description, "description", DESCRIPTION_MAX, details);
  const severity = checkOptionalEnum(value.severity, "severity", SEVERITIES, details);
  const groupKey = checkOptionalString(value.group_key, "group_key", GROUP_KEY_MAX, details);
  const metadata = value.metadata;
  const metadataOk = metadata === undefined || isValidMetadata(metadata, "metadata", details);
  // Metadata is stored; a number in it that a double would change is refused, not stored otherwise.
  for (const number of inexactNumbers) if (number.top === "metadata") details.push(inexactNumberProblem(number));

  if (details.length > 0 || title === undefined) return { ok: false, details };

  const body: TriggerBody = { title };
  if (description !== undefined) body.description = description;
  if (severity !== undefined) body.severity = severity;
  if (metadataOk && metadata !== undefined) body.metadata = metadata as TriggerBody["metadata"];
  if (groupKey !== undefined) body.group_key = groupKey;
  return { ok: true, value: body };
}
