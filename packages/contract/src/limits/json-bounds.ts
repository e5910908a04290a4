/**
 * How deep and how big a free-form JSON value a caller sends may be: trigger and ping metadata
 * (ALERT_LIMITS), a webhook's filter-rule values (WEBHOOK_LIMITS), a silence's metadata matchers.
 * `{}` and `[]` are level 1. Without `maxBytes` only the depth is bounded here.
 */
export type JsonBounds = { maxDepth: number; maxBytes?: number };

/**
 * Nesting depth with early exit: `{}` is 1, `{"a":{}}` is 2, arrays count as a level, scalars
 * add nothing. Iterative, and returns `limit + 1` as soon as the limit is passed, so hostile
 * nesting costs neither stack nor a full walk.
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
 * What `value` breaks of `bounds`, as the rest of a sentence after the field's name ("must be
 * nested at most 10 levels deep"), or null. The depth is checked first, so JSON.stringify (and
 * anything else recursive) never meets a value nested deeper than the bound.
 */
export function jsonBoundsProblem(value: unknown, bounds: JsonBounds): string | null {
  if (nestingDepth(value, bounds.maxDepth) > bounds.maxDepth) {
    return `must be nested at most ${bounds.maxDepth} levels deep`;
  }
  if (bounds.maxBytes === undefined) return null;
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    json = undefined;
  }
  if (json === undefined) return "must be JSON-serialisable";
  if (Buffer.byteLength(json, "utf8") > bounds.maxBytes) return `must be at most ${bounds.maxBytes} bytes as JSON`;
  return null;
}
