/** A resource a peer must return with a successful answer; its absence is a bug, answered 500. */
export function requirePresent<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`peer answered without ${what}`);
  return value;
}
