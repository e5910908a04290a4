import { findUnstorableText } from "@pulsegate/text";
import { isPlainObject } from "./fields.ts";
import { METADATA_MAX_BYTES, METADATA_MAX_DEPTH, type Metadata, type ValidationDetail } from "./types.ts";

/**
 * Nesting depth with early exit: `{}` is 1, `{"a":{}}` is 2, arrays count as a level,
 * scalars add nothing. Iterative, and returns `limit + 1` as soon as the limit is
 * passed, so hostile nesting costs neither stack nor a full walk.
 */
export function nestingDepth(value: unknown, limit: number): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (typeof current !== "object" || current === null) continue;
    const level = depth + 1;
    if (level > limit) return limit + 1;
    if (level > max) max = level;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      stack.push([child, level]);
    }
  }
  return max;
}

/**
 * The single place for the metadata rules shared by trigger and ping bodies:
 * a JSON object (not array, not null), nested at most 10 levels (the object itself
 * is level 1), at most 102,400 bytes as UTF-8 of JSON.stringify(value), and no
 * text that cannot be stored (U+0000, unpaired surrogates), named by its path
 * (`metadata.k`). Depth is checked first so neither the walk nor JSON.stringify
 * sees pathological nesting. Returns the details (empty when valid); `field`
 * prefixes the messages.
 */
export function checkMetadata(value: unknown, field: string): ValidationDetail[] {
  const shape = checkMetadataShape(value, field);
  return shape.length > 0 ? shape : findUnstorableText(value, field);
}

/** Object, depth and size only (for metadata whose parts were checked for text already). */
export function checkMetadataShape(value: unknown, field: string): ValidationDetail[] {
  if (!isPlainObject(value)) return [{ field, message: `${field} must be an object.` }];
  if (nestingDepth(value, METADATA_MAX_DEPTH) > METADATA_MAX_DEPTH) {
    return [
      {
        field,
        message: `${field} must be nested at most ${METADATA_MAX_DEPTH} levels deep.`,
      },
    ];
  }
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    json = undefined;
  }
  if (json === undefined) return [{ field, message: `${field} must be JSON-serialisable.` }];
  if (Buffer.byteLength(json, "utf8") > METADATA_MAX_BYTES) {
    return [
      {
        field,
        message: `${field} must be at most ${METADATA_MAX_BYTES} bytes as JSON.`,
      },
    ];
  }
  return [];
}

export function isValidMetadata(value: unknown, field: string, details: ValidationDetail[]): value is Metadata {
  const problems = checkMetadata(value, field);
  details.push(...problems);
  return problems.length === 0;
}
