import { configure } from "safe-stable-stringify";
import { isActive, type Silence } from "./silence.ts";

/** JSON with every object's keys sorted: two JSON values are equal exactly when these texts are. */
const canonicalJson = configure({ deterministic: true });

/** What a silence is matched against: the trigger (or incident) that creates or reopens an alert. */
export type AlertFacts = { sourceId: string; groupKey: string | null; metadata: unknown };

/** What the trigger path reads of a silence. */
export type LiveSilence = Pick<Silence, "id" | "startsAt" | "endsAt" | "recurrence" | "matchers">;

/**
 * A silence compiled once for the trigger path: its window as stored, its source ids as a set,
 * and each metadata value written out once as canonical JSON, so matching a trigger compares
 * short texts instead of serialising the silence's values again for every trigger.
 */
export type SilenceMatcher = Pick<Silence, "id" | "startsAt" | "endsAt" | "recurrence"> & {
  /** null: any source. */
  sourceIds: ReadonlySet<string> | null;
  /** "": any group key. */
  groupKeyPrefix: string;
  /** Top-level keys and the canonical JSON their values must have. */
  metadata: readonly (readonly [key: string, json: string])[];
};

export function compileSilence(silence: LiveSilence): SilenceMatcher {
  const { sourceIds, groupKeyPrefix, metadata } = silence.matchers;
  return {
    id: silence.id,
    startsAt: silence.startsAt,
    endsAt: silence.endsAt,
    recurrence: silence.recurrence,
    sourceIds: sourceIds.length > 0 ? new Set(sourceIds) : null,
    groupKeyPrefix,
    metadata: Object.entries(metadata).map(([key, value]) => [key, canonicalJson(value) ?? "null"] as const),
  };
}

/** About how much memory a compiled silence holds (characters, plus a share for the objects around them). */
export function matcherSize(matcher: SilenceMatcher): number {
  let size = 200 + matcher.id.length + matcher.groupKeyPrefix.length;
  for (const id of matcher.sourceIds ?? []) size += 40 + id.length;
  for (const [key, json] of matcher.metadata) size += 40 + key.length + json.length;
  return size;
}

/**
 * The alert's top-level metadata values as canonical JSON, each written out at most once, and
 * only when a silence names its key (undefined: the alert has no such key).
 */
function metadataOf(alert: AlertFacts): (key: string) => string | undefined {
  const metadata = typeof alert.metadata === "object" && alert.metadata !== null ? alert.metadata : {};
  const written = new Map<string, string | undefined>();
  return (key) => {
    if (written.has(key)) return written.get(key);
    const json = Object.hasOwn(metadata, key)
      ? (canonicalJson((metadata as Record<string, unknown>)[key]) ?? "null")
      : undefined;
    written.set(key, json);
    return json;
  };
}

/** Every given matcher holds (none: the whole team); metadata values compare as JSON values. */
function matches(matcher: SilenceMatcher, alert: AlertFacts, metadata: (key: string) => string | undefined): boolean {
  if (matcher.sourceIds !== null && !matcher.sourceIds.has(alert.sourceId)) return false;
  if (matcher.groupKeyPrefix !== "" && !(alert.groupKey ?? "").startsWith(matcher.groupKeyPrefix)) return false;
  for (const [key, json] of matcher.metadata) if (metadata(key) !== json) return false;
  return true;
}

/** The first of a team's silences open at `at` that matches the alert; null when none does. */
export function silencedBy(silences: readonly SilenceMatcher[], alert: AlertFacts, at: Date): string | null {
  const metadata = metadataOf(alert);
  for (const silence of silences) if (isActive(silence, at) && matches(silence, alert, metadata)) return silence.id;
  return null;
}
