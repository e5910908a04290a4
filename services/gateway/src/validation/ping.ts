import { findUnstorableText } from "@pulsegate/contract/text";
import { PING_STATUSES } from "@pulsegate/contract/vocabulary";
import { type InexactNumber, inexactNumberProblem } from "./exact-numbers.ts";
import { checkOptionalEnum, checkOptionalString, isPlainObject } from "./field-checks.ts";
import { checkMetadataShape, isValidMetadata } from "./metadata.ts";
import {
  GROUP_KEY_MAX,
  type Metadata,
  type ParseResult,
  type PingBody,
  REASON_MAX,
  type ValidationDetail,
} from "./request-bodies.ts";

const KNOWN_FIELDS = new Set(["status", "reason", "group_key", "metadata"]);
/** Fields that must be strings: a number there is refused as a wrong type already. */
const TYPED_FIELDS = new Set(["status", "reason", "group_key"]);

/**
 * Validates an already JSON.parse'd ping body; `undefined` means an empty body.
 * - empty body -> { status: "up" };
 * - otherwise a JSON object: status "up" | "down" (default "up"), reason string
 *   <= 200 code points, group_key string <= 200 code points, metadata object;
 * - every other top-level field is folded into metadata. Precedence, lowest first:
 *   folded extras < explicit `metadata` keys < `group_key` (group_key is always
 *   copied into metadata as `group_key`, so it overrides metadata.group_key).
 * - the explicit metadata AND the final merged metadata must both pass the metadata
 *   shape rules (<= 102400 bytes, <= 10 levels), so extras cannot bypass the limits;
 * - no string or key anywhere may hold text that cannot be stored (U+0000, unpaired
 *   surrogates), and no number a double would not keep as sent (`inexactNumbers`, from
 *   parseJsonBody); extras are named by their own path (`build.log`).
 * - `metadata` is present in the result only when something was put into it.
 */
export function parsePingBody(
  value: unknown | undefined,
  inexactNumbers: readonly InexactNumber[] = [],
): ParseResult<PingBody> {
  if (value === undefined) return { ok: true, value: { status: "up" } };
  if (!isPlainObject(value)) {
    return {
      ok: false,
      details: [{ field: "body", message: "body must be a JSON object." }],
    };
  }
  const details: ValidationDetail[] = [];
  const status = checkOptionalEnum(value.status, "status", PING_STATUSES, details) ?? "up";
  const reason = checkOptionalString(value.reason, "reason", REASON_MAX, details);
  const groupKey = checkOptionalString(value.group_key, "group_key", GROUP_KEY_MAX, details);
  const explicit = value.metadata;
  const explicitOk = explicit === undefined || isValidMetadata(explicit, "metadata", details);
  const extras = Object.entries(value).filter(([key]) => !KNOWN_FIELDS.has(key));
  // Extras are named as sent (`build.log`), before they are folded into metadata.
  for (const [key, extra] of extras) details.push(...findUnstorableText({ [key]: extra }, ""));
  // Everything but the typed fields ends up in the stored metadata: a number a double would change is refused.
  for (const number of inexactNumbers) if (!TYPED_FIELDS.has(number.field)) details.push(inexactNumberProblem(number));
  if (details.length > 0) return { ok: false, details };

  const entries: Array<[string, unknown]> = [
    ...extras,
    ...(explicitOk && explicit !== undefined ? Object.entries(explicit as Metadata) : []),
  ];
  if (groupKey !== undefined) entries.push(["group_key", groupKey]);

  const body: PingBody = { status };
  if (reason !== undefined) body.reason = reason;
  if (groupKey !== undefined) body.group_key = groupKey;
  if (explicit !== undefined || entries.length > 0) {
    // Object.fromEntries defines own properties, so a "__proto__" key stays data.
    const metadata: Metadata = Object.fromEntries(entries);
    const problems = checkMetadataShape(metadata, "metadata");
    if (problems.length > 0) return { ok: false, details: problems };
    body.metadata = metadata;
  }
  return { ok: true, value: body };
}
