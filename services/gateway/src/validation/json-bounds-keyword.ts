import { type JsonBounds, jsonBoundsProblem } from "@pulsegate/contract/limits";
import type { Ajv, ErrorObject } from "ajv";

/** The schema keyword that bounds a free-form JSON value: `{ "x-json-bounds": { maxDepth, maxBytes? } }`. */
export const JSON_BOUNDS_KEYWORD = "x-json-bounds";

/** A free-form value's schema with its bounds (filter-rule values, silence metadata matchers). */
export const boundedJson = (bounds: JsonBounds, schema: object = {}) => ({ ...schema, [JSON_BOUNDS_KEYWORD]: bounds });

/** ajv's check of the keyword: false, with the sentence as its error, when `data` breaks `bounds`. */
function withinBounds(bounds: JsonBounds, data: unknown): boolean {
  const problem = jsonBoundsProblem(data, bounds);
  withinBounds.errors =
    problem === null ? [] : [{ keyword: JSON_BOUNDS_KEYWORD, message: problem, params: { ...bounds } }];
  return problem === null;
}
withinBounds.errors = [] as Partial<ErrorObject>[];

/**
 * Teaches ajv the keyword: a value nested deeper, or bigger as JSON, than its bounds fails its
 * schema with the sentence of `jsonBoundsProblem`, naming the field. ajv validates a body before
 * any hook or handler sees it and does not itself descend into a free-form value, so nothing
 * recursive (the text check, JSON.stringify on the way to a service) ever meets deeper nesting.
 */
export function addJsonBoundsKeyword(ajv: Ajv): void {
  ajv.addKeyword({ keyword: JSON_BOUNDS_KEYWORD, schemaType: "object", errors: true, validate: withinBounds });
}
