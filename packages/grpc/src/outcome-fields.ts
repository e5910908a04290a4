/** The type of field `K` in the members of union `R` that have it; never when none has. */
type FieldOf<R, K extends PropertyKey> = R extends Readonly<Record<K, infer V>> ? V : never;

/**
 * A domain result, a union of outcomes each with its own fields, as the flat
 * fields of its proto message (which has them all at once): each field of
 * `absent` is the result's own where its outcome has it, else the proto
 * default `absent` gives. A field whose type differs from the result's is a
 * type error (type an empty list's items).
 */
export function outcomeFields<R extends object, F extends object>(
  result: R,
  absent: F & { [K in keyof F]: [FieldOf<R, K>] extends [F[K]] ? F[K] : { differsFrom: FieldOf<R, K> } },
): F {
  const fields: Record<string, unknown> = {};
  for (const [key, fallback] of Object.entries(absent)) {
    // A default list is copied: no two messages share one.
    if (key in result) fields[key] = (result as Record<string, unknown>)[key];
    else fields[key] = Array.isArray(fallback) ? [...fallback] : fallback;
  }
  return fields as F;
}
