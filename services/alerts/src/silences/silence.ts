import type { FieldProblem } from "@pulsegate/contract/errors";
import { instantSentence, isWithinInstantLimits, SILENCE_LIMITS } from "@pulsegate/contract/limits";
import { nameProblem } from "@pulsegate/contract/text";
import { checkSilenceMetadata } from "./check-silence-metadata.ts";

export type Recurrence = "daily" | "weekly";

export type SilenceMatchers = {
  /** Webhook or monitor ids; empty: any source. */
  sourceIds: string[];
  /** "": any group key. */
  groupKeyPrefix: string;
  /** Top-level metadata keys and the values they must equal; empty: any metadata. */
  metadata: Record<string, unknown>;
};

export type Silence = {
  id: string;
  teamId: string;
  name: string;
  startsAt: Date;
  endsAt: Date;
  recurrence: Recurrence | null;
  matchers: SilenceMatchers;
  createdAt: Date;
};

const PERIOD_MS: Record<Recurrence, number> = { daily: 86_400_000, weekly: 7 * 86_400_000 };

/**
 * Whether the window is open at `at`: [startsAt, endsAt), or for a recurring
 * silence that window shifted by whole days or weeks (from startsAt on, in
 * UTC: a daily 02:00–03:00 window is 02:00–03:00 UTC every day).
 */
export function isActive(silence: Pick<Silence, "startsAt" | "endsAt" | "recurrence">, at: Date): boolean {
  const t = at.getTime();
  const start = silence.startsAt.getTime();
  const length = silence.endsAt.getTime() - start;
  if (t < start) return false;
  if (silence.recurrence === null) return t < start + length;
  return (t - start) % PERIOD_MS[silence.recurrence] < length;
}

export type SilenceInput = {
  name: string;
  startsAt: Date | undefined;
  endsAt: Date | undefined;
  recurrence: string;
  sourceIds: string[];
  groupKeyPrefix: string;
  metadataJson: string;
};

/** Checks a new silence; the problems are named by field. */
export function checkSilence(input: SilenceInput): {
  silence?: Omit<Silence, "id" | "teamId" | "createdAt">;
  errors: FieldProblem[];
} {
  const errors: FieldProblem[] = [];
  const name = input.name.trim();
  const problem = nameProblem(name, SILENCE_LIMITS.nameMaxLength);
  if (problem) errors.push(problem);
  if (!input.startsAt) errors.push({ field: "startsAt", message: "startsAt is required." });
  else if (!isWithinInstantLimits(input.startsAt))
    errors.push({ field: "startsAt", message: instantSentence("startsAt") });
  if (!input.endsAt) errors.push({ field: "endsAt", message: "endsAt is required." });
  else if (!isWithinInstantLimits(input.endsAt)) errors.push({ field: "endsAt", message: instantSentence("endsAt") });
  if (input.startsAt && input.endsAt && input.endsAt <= input.startsAt) {
    errors.push({ field: "endsAt", message: "endsAt must be after startsAt." });
  }
  let recurrence: Recurrence | null = null;
  if (input.recurrence === "daily" || input.recurrence === "weekly") recurrence = input.recurrence;
  else if (input.recurrence !== "") {
    errors.push({ field: "recurrence", message: "recurrence must be daily or weekly (or absent)." });
  }
  if (recurrence && input.startsAt && input.endsAt) {
    if (input.endsAt.getTime() - input.startsAt.getTime() >= PERIOD_MS[recurrence]) {
      errors.push({ field: "endsAt", message: `A ${recurrence} window must be shorter than its period.` });
    }
  }
  if (input.sourceIds.length > SILENCE_LIMITS.maxSourceIds) {
    errors.push({ field: "matchers.sourceIds", message: `At most ${SILENCE_LIMITS.maxSourceIds} source ids.` });
  }
  if ([...input.groupKeyPrefix].length > SILENCE_LIMITS.groupKeyPrefixMaxLength) {
    errors.push({
      field: "matchers.groupKeyPrefix",
      message: `groupKeyPrefix must be at most ${SILENCE_LIMITS.groupKeyPrefixMaxLength} characters.`,
    });
  }
  let metadata: Record<string, unknown> = {};
  if (input.metadataJson !== "") {
    try {
      const parsed: unknown = JSON.parse(input.metadataJson);
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("not an object");
      metadata = parsed as Record<string, unknown>;
    } catch {
      errors.push({ field: "matchers.metadata", message: "matchers.metadata must be a JSON object." });
    }
    errors.push(...checkSilenceMetadata(metadata));
  }
  if (errors.length > 0 || !input.startsAt || !input.endsAt) return { errors };
  return {
    silence: {
      name,
      startsAt: input.startsAt,
      endsAt: input.endsAt,
      recurrence,
      matchers: { sourceIds: input.sourceIds, groupKeyPrefix: input.groupKeyPrefix, metadata },
    },
    errors,
  };
}
