/**
 * Text PostgreSQL cannot keep as sent: U+0000 (text and jsonb refuse it) and
 * ill-formed UTF-16 (a lone surrogate, which the driver would silently turn
 * into U+FFFD, so "\ud800" and "\udfff" would become one group key). One rule
 * for every place that accepts text from outside: refuse it with a 400 that
 * names the field instead of storing something else, or failing later.
 */
export type TextFault = "nul" | "lone_surrogate";

export type TextProblem = { field: string; message: string };

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
 * `field` is the path of `value` itself ("" at the top of a body). Every level
 * is checked, however deep: the walk is iterative, so no nesting a caller sends
 * can overflow the stack or pass unchecked (bounding depth is the callers' job).
 */
export function findUnstorableText(value: unknown, field: string): TextProblem[] {
  const problems: TextProblem[] = [];
  // Depth first, in document order: a key before its value, items in order.
  const pending: Array<{ value: unknown; field: string } | { key: string; field: string }> = [{ value, field }];
  while (pending.length > 0) {
    const next = pending.pop() as (typeof pending)[number];
    if ("key" in next) {
      const keyFault = textFault(next.key);
      if (keyFault) problems.push(textProblem(next.field, keyFault, "key"));
      continue;
    }
    const current = next.value;
    if (typeof current === "string") {
      const fault = textFault(current);
      if (fault) problems.push(textProblem(next.field || "body", fault));
      continue;
    }
    if (typeof current !== "object" || current === null) continue;
    if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--) {
        pending.push({ value: current[index], field: `${next.field}[${index}]` });
      }
      continue;
    }
    const entries = Object.entries(current);
    for (let index = entries.length - 1; index >= 0; index--) {
      const [key, item] = entries[index] as [string, unknown];
      const path = next.field ? `${next.field}.${key}` : key;
      pending.push({ value: item, field: path }, { key, field: path });
    }
  }
  return problems;
}
