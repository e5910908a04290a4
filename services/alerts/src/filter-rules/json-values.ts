// Checks over parsed JSON values, shared by validation and evaluation. All walks over untrusted
// values are iterative or bounded, so hostile nesting cannot blow the stack.

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * True for JSON data only: no undefined, function, NaN, Infinity or bigint anywhere. Iterative;
 * run it on values whose depth and size are bounded already.
 */
export function isJsonValue(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (current === null || typeof current === "string" || typeof current === "boolean") continue;
    if (typeof current === "number") {
      if (!Number.isFinite(current)) return false;
      continue;
    }
    if (typeof current !== "object") return false;
    for (const child of Array.isArray(current) ? current : Object.values(current)) stack.push(child);
  }
  return true;
}

/**
 * Deep JSON equality: arrays element-wise in order, objects by own keys regardless
 * of key order, scalars with ===. Recursion is bounded by the shallower operand,
 * and rule values are validated to at most VALUE_BOUNDS.maxDepth levels.
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const aKeys = Object.keys(a);
  if (aKeys.length !== Object.keys(b).length) return false;
  const bRecord = b as Record<string, unknown>;
  const aRecord = a as Record<string, unknown>;
  for (const key of aKeys) {
    if (!Object.hasOwn(bRecord, key) || !deepEqual(aRecord[key], bRecord[key])) return false;
  }
  return true;
}

/** True for canonical non-negative integer segments: "0", "7", "12" (not "01", "-1", "1e2"). */
export function isIndexSegment(segment: string): boolean {
  if (segment.length === 0 || segment.length > 15) return false;
  if (segment.length > 1 && segment[0] === "0") return false;
  for (const ch of segment) if (ch < "0" || ch > "9") return false;
  return true;
}
