import { isWithinInstantLimits } from "@pulsegate/contract/limits";
import type { Ajv, Format } from "ajv";

/** What ajv-formats registered: a bare check, or a definition with one. */
function checkOf(format: Format | undefined): (text: string) => boolean {
  const check = typeof format === "object" && !(format instanceof RegExp) ? format.validate : format;
  if (typeof check === "function") return (text) => (check as (text: string) => boolean)(text);
  if (check instanceof RegExp) return (text) => check.test(text);
  throw new Error("ajv has no date-time format to narrow");
}

/**
 * Narrows the JSON schema's `date-time` (ajv-formats: RFC 3339 syntax, which also allows a leap
 * second, year 0000 and an hours-only offset) to the instants every admin field can keep: text of
 * that syntax that `Date` reads as a real instant within INSTANT_LIMITS. So a route's
 * `new Date(body.x)` is always that instant, and a body the schema accepts never fails later.
 * Registered when Fastify creates its ajv, after ajv-formats.
 */
export function narrowDateTimeFormat(ajv: Ajv): void {
  const rfc3339 = checkOf(ajv.formats["date-time"]);
  ajv.addFormat("date-time", {
    type: "string",
    validate: (text: string) => rfc3339(text) && isWithinInstantLimits(new Date(text)),
  });
}
