import { type JsonBounds, jsonBoundsProblem } from "@pulsegate/contract/limits";
import { findUnstorableText } from "@pulsegate/contract/text";
import { isPlainObject } from "./field-checks.ts";
import { METADATA_MAX_BYTES, METADATA_MAX_DEPTH, type Metadata, type ValidationDetail } from "./request-bodies.ts";

const METADATA_BOUNDS: JsonBounds = { maxDepth: METADATA_MAX_DEPTH, maxBytes: METADATA_MAX_BYTES };

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
  const problem = jsonBoundsProblem(value, METADATA_BOUNDS);
  return problem === null ? [] : [{ field, message: `${field} ${problem}.` }];
}

export function isValidMetadata(value: unknown, field: string, details: ValidationDetail[]): value is Metadata {
  const problems = checkMetadata(value, field);
  details.push(...problems);
  return problems.length === 0;
}
