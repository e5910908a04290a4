/**
 * Text PostgreSQL cannot keep as sent: U+0000 (text and jsonb refuse it) and
 * ill-formed UTF-16 (a lone surrogate, which the driver would silently turn
 * into U+FFFD, so "\ud800" and "\udfff" would become one group key). One rule
 * for every place that accepts text from outside: refuse it with a 400 that
 * names the field instead of storing something else, or failing later.
 */
export type TextFault = "nul" | "lone_surrogate";

export type TextProblem = { field: string; message: string };

/** Nesting past this is refused elsewhere (metadata allows 10 levels); the walk stops there. */
const MAX_DEPTH = 64;

export function textFault(value: string): TextFault | null {
  if (value.includes("\u0000")) return "nul";
  if (!value.isWellFormed()) return "lone_surrogate";
  return null;
}

/** The sentence for a faulty value (or key) at `field`. */
export function textProblem(field: string, fault: TextFault, what: "value" | "key" = "value"): TextProblem {
  const subject = what === "key" ? `${field}: keys` : field;
  const rule =
    fault === "nul"
      ? "must not contain the NUL character (U+0000)"
      : "must be well-formed Unicode (an unpaired surrogate such as \\udfff cannot be stored)";
  return { field, message: `${subject} ${rule}.` };
}

/**
 * Every string and key in a JSON value that cannot be stored, as field
 * paths the caller recognises: `metadata.k`, `list[2]`, `filterRules[0].value`.
 * `field` is the path of `value` itself ("" at the top of a body).
 */
export function findUnstorableText(value: unknown, field: string, depth = 0): TextProblem[] {
  if (typeof value === "string") {
    const fault = textFault(value);
    return fault ? [textProblem(field || "body", fault)] : [];
  }
  if (typeof value !== "object" || value === null || depth > MAX_DEPTH) return [];
  if (Array.isArray(value)) {
    const problems: TextProblem[] = [];
    value.forEach((item, index) => {
      problems.push(...findUnstorableText(item, `${field}[${index}]`, depth + 1));
    });
    return problems;
  }
  const problems: TextProblem[] = [];
  for (const [key, item] of Object.entries(value)) {
    const path = field ? `${field}.${key}` : key;
    const keyFault = textFault(key);
    if (keyFault) problems.push(textProblem(path, keyFault, "key"));
    problems.push(...findUnstorableText(item, path, depth + 1));
  }
  return problems;
}

/**
 * For services that receive JSON as text (metadata_json in gRPC requests):
 * the problems in it, or an empty list. Text that is not JSON is not this
 * rule's business (the caller checks shape separately) and yields none.
 */
export function findUnstorableTextInJson(json: string, field: string): TextProblem[] {
  // Cheap pre-check: without a backslash escape or a raw NUL or surrogate there is nothing to find.
  if (!json.includes("\\u") && textFault(json) === null) return [];
  try {
    return findUnstorableText(JSON.parse(json), field);
  } catch {
    return [];
  }
}
