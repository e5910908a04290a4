import { defineEntity, type InferEntity, p } from "@pulsegate/db";
import type { Recurrence, SilenceMatchers } from "./silence.ts";

/** A maintenance window or silence of a team (silence.ts says when one applies). */
export const SilenceSchema = defineEntity({
  name: "Silence",
  tableName: "silences",
  properties: {
    id: p.string().primary(),
    teamId: p.string(),
    name: p.string(),
    startsAt: p.datetime(),
    endsAt: p.datetime(),
    recurrence: p.string().$type<Recurrence>().nullable(),
    matchers: p.json<SilenceMatchers>(),
    createdAt: p.datetime(),
  },
});

export type SilenceEntity = InferEntity<typeof SilenceSchema>;
