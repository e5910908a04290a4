import type { FieldProblem } from "@pulsegate/contract/errors";
import { instantSentence } from "@pulsegate/contract/limits";
import { PAGE_LIMITS } from "@pulsegate/contract/page-cursor";
import type { FastifySchemaValidationError } from "fastify/types/schema.js";

function decodePointer(pointer: string): string[] {
  return pointer
    .split("/")
    .slice(1)
    .map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"));
}

/** `filterRules[0].op`: the notation the services use in their details too. */
function join(...parts: (string | undefined)[]): string {
  let path = "";
  for (const part of parts) {
    if (part === undefined || part === "") continue;
    if (/^\d+$/.test(part)) path += `[${part}]`;
    else path += path ? `.${part}` : part;
  }
  return path;
}

/** An error of a `propertyNames` rule: about one of the object's keys, which ajv adds to the error. */
const isAboutKey = (issue: FastifySchemaValidationError) =>
  typeof (issue as { propertyName?: unknown }).propertyName === "string";

/**
 * Turns Fastify (ajv) schema errors into `details: [{field, message}]`, with
 * field paths like "filterRules[0].op" and whole sentences.
 */
export function detailsFromValidation(
  issues: readonly FastifySchemaValidationError[],
  context: string | undefined,
): FieldProblem[] {
  // A key that breaks `propertyNames` comes twice: its own rule (carrying `propertyName`), then
  // "property name must be valid"; the first says what is wrong.
  const named = issues.filter(
    (issue) =>
      issue.keyword !== "propertyNames" ||
      !issues.some((other) => isAboutKey(other) && other.instancePath === issue.instancePath),
  );
  return named.map((issue) => {
    const path = join(...decodePointer(issue.instancePath));
    const params = issue.params as Record<string, unknown>;
    if (issue.keyword === "required" && typeof params.missingProperty === "string") {
      const field = join(path, params.missingProperty);
      return { field, message: `${field} is required.` };
    }
    if (issue.keyword === "additionalProperties" && typeof params.additionalProperty === "string") {
      const field = join(path, params.additionalProperty);
      return { field, message: `${field} is not allowed.` };
    }
    const field = path || context || "body";
    if (isAboutKey(issue)) return { field, message: `${field} keys ${issue.message ?? "are invalid"}.` };
    // ajv's own sentence ("must be equal to one of the allowed values") does not name them.
    if (issue.keyword === "enum" && Array.isArray(params.allowedValues)) {
      return { field, message: `${field} must be one of ${params.allowedValues.join(", ")}.` };
    }
    // A page size arrives as text and is checked by a pattern: say what the pattern means.
    if (issue.keyword === "pattern" && context === "querystring" && field === "limit") {
      return { field, message: `limit must be a whole number from 1 to ${PAGE_LIMITS.max}.` };
    }
    // A date-time is also held to the instants every field can keep (validation/date-time-format.ts).
    if (issue.keyword === "format" && params.format === "date-time") return { field, message: instantSentence(field) };
    return { field, message: `${field} ${issue.message ?? "is invalid"}.` };
  });
}
