// JSON helpers shared by validation and evaluation. All walks over untrusted
// values are iterative or bounded, so hostile nesting cannot blow the stack.

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Nesting depth of a JSON value: scalars are 0, `{}` / `[]` are 1, `{"a":{}}` is 2.
 * Stops counting once `limit` is exceeded (returns limit + 1) and returns -1 for
 * anything that is not a JSON value (undefined, functions, NaN, Infinity, bigint, ...).
 */
export function jsonDepth(value: unknown, limit: number): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (current === null || typeof current === "string" || typeof current === "boolean") continue;
    if (typeof current === "number") {
      if (!Number.isFinite(current)) return -1;
      continue;
    }
    if (typeof current !== "object") return -1;
    const level = depth + 1;
    if (level > limit) return limit + 1;
    if (level > max) max = level;
    const children = Array.isArray(current) ? current : Object.values(current);
    for (const child of children) stack.push([child, level]);
  }
  return max;
}

/**
 * Deep JSON equality: arrays element-wise in order, objects by own keys regardless
 * of key order, scalars with ===. Recursion is bounded by the shallower operand,
 * and rule values are validated to at most MAX_VALUE_DEPTH levels.
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
