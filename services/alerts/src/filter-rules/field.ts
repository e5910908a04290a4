import { WEBHOOK_LIMITS } from "@pulsegate/contract/limits";

export type ParsedField =
  | { ok: true; kind: "title" }
  | { ok: true; kind: "severity" }
  | { ok: true; kind: "metadata"; path: string[] }
  | { ok: false; message: string };

const METADATA_PREFIX = "metadata.";

/**
 * Field grammar: "title" | "severity" | "metadata." segment ("." segment)*, with
 * 1..WEBHOOK_LIMITS.filterFieldMaxSegments non-empty segments. Segments are literal keys (no escaping, so a
 * key containing "." cannot be addressed); a canonical integer segment ("0", "12")
 * indexes into an array when the value at that point is an array.
 * `message` completes the sentence "<field> ...".
 */
export function parseField(field: string): ParsedField {
  if (field === "title") return { ok: true, kind: "title" };
  if (field === "severity") return { ok: true, kind: "severity" };
  if (!field.startsWith(METADATA_PREFIX)) {
    return {
      ok: false,
      message: 'must be "title", "severity" or "metadata.<path>".',
    };
  }
  const path = field.slice(METADATA_PREFIX.length).split(".");
  if (path.some((segment) => segment.length === 0)) {
    return {
      ok: false,
      message: "must not contain empty metadata path segments.",
    };
  }
  if (path.length > WEBHOOK_LIMITS.filterFieldMaxSegments) {
    return {
      ok: false,
      message: `must have at most ${WEBHOOK_LIMITS.filterFieldMaxSegments} metadata path segments.`,
    };
  }
  return { ok: true, kind: "metadata", path };
}
