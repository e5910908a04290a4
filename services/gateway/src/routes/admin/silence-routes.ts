import { SILENCE_LIMITS } from "@pulsegate/contract/limits";
import { callUnary } from "@pulsegate/grpc";
import type { alerts } from "@pulsegate/proto";
import type { FastifyInstance } from "fastify";
import type { Peers } from "../../peers/connect-peers.ts";
import { boundedJson } from "../../validation/json-bounds-keyword.ts";
import { iso, orNull } from "./absent-as-null.ts";
import { TEAM } from "./access.ts";
import { type Collection, teamCreateRoute, teamListRoute } from "./collection-routes.ts";
import type { RecordAudit } from "./record-audit.ts";
import { requirePresent } from "./require-present.ts";
import { requireTeam } from "./require-team.ts";

type TeamParams = { teamId: string };
type SilenceBody = {
  name: string;
  startsAt: string;
  endsAt: string;
  recurrence?: "daily" | "weekly" | null;
  matchers?: { sourceIds?: string[]; groupKeyPrefix?: string; metadata?: Record<string, unknown> };
};

const tags = ["alerts"];
const SILENCES: Collection = { plural: "silences", kind: "silence", ref: "Silence", tags };

export function silenceJson(silence: alerts.Silence) {
  const matchers = silence.matchers;
  return {
    id: silence.id,
    teamId: silence.teamId,
    name: silence.name,
    startsAt: iso(silence.startsAt),
    endsAt: iso(silence.endsAt),
    recurrence: orNull(silence.recurrence),
    matchers: {
      sourceIds: matchers?.sourceIds ?? [],
      groupKeyPrefix: matchers?.groupKeyPrefix ? matchers.groupKeyPrefix : null,
      metadata: matchers?.metadataJson ? (JSON.parse(matchers.metadataJson) as Record<string, unknown>) : {},
    },
    active: silence.active,
    createdAt: iso(silence.createdAt),
  };
}

export const createSilenceBody = {
  type: "object",
  additionalProperties: false,
  examples: [
    {
      name: "nightly maintenance",
      startsAt: "2026-12-01T02:00:00Z",
      endsAt: "2026-12-01T03:00:00Z",
      recurrence: "daily",
      matchers: { groupKeyPrefix: "db-" },
    },
  ],
  required: ["name", "startsAt", "endsAt"],
  properties: {
    name: { type: "string", minLength: 1, maxLength: SILENCE_LIMITS.nameMaxLength },
    startsAt: { type: "string", format: "date-time" },
    endsAt: { type: "string", format: "date-time", description: "After startsAt." },
    recurrence: {
      type: ["string", "null"],
      enum: ["daily", "weekly", null],
      description: "The window repeats every day or week (UTC) from startsAt; null: once.",
    },
    matchers: {
      type: "object",
      additionalProperties: false,
      description: "All given must hold; none: every alert of the team.",
      properties: {
        sourceIds: {
          type: "array",
          maxItems: SILENCE_LIMITS.maxSourceIds,
          items: { type: "string", maxLength: SILENCE_LIMITS.sourceIdMaxLength },
        },
        groupKeyPrefix: { type: "string", maxLength: SILENCE_LIMITS.groupKeyPrefixMaxLength },
        metadata: boundedJson(
          { maxDepth: SILENCE_LIMITS.metadataMaxDepth, maxBytes: SILENCE_LIMITS.metadataMaxBytes },
          {
            type: "object",
            maxProperties: SILENCE_LIMITS.metadataMaxKeys,
            propertyNames: { maxLength: SILENCE_LIMITS.metadataKeyMaxLength },
            description:
              `Top-level metadata keys and the values they must equal. At most ${SILENCE_LIMITS.metadataMaxBytes} bytes ` +
              `as JSON, ${SILENCE_LIMITS.metadataMaxDepth} levels deep, ${SILENCE_LIMITS.metadataMaxKeys} keys of at most ` +
              `${SILENCE_LIMITS.metadataKeyMaxLength} characters, each value at most ` +
              `${SILENCE_LIMITS.metadataValueMaxBytes} bytes as JSON; a team's matchers at most ` +
              `${SILENCE_LIMITS.matchersMaxBytesPerTeam} bytes in all.`,
          },
        ),
      },
    },
  },
} as const;

/**
 * Maintenance windows and silences (alerts): while one matches, an alert is
 * still created or reopened but nobody is notified; the alert says which
 * silence (`silencedBy`).
 */
export async function silenceRoutes(
  app: FastifyInstance,
  { peers, audit }: { peers: Peers; audit: RecordAudit },
): Promise<void> {
  const client = peers.alerts;

  teamCreateRoute<SilenceBody>(app, peers, audit, SILENCES, {
    summary: "Create a maintenance window or silence",
    body: createSilenceBody,
    description: "The silence.",
    create: async (teamId, body) => {
      const response = await callUnary(client, "createSilence", {
        teamId,
        name: body.name,
        startsAt: new Date(body.startsAt),
        endsAt: new Date(body.endsAt),
        recurrence: body.recurrence ?? "",
        matchers: {
          sourceIds: body.matchers?.sourceIds ?? [],
          groupKeyPrefix: body.matchers?.groupKeyPrefix ?? "",
          metadataJson: body.matchers?.metadata === undefined ? "" : JSON.stringify(body.matchers.metadata),
        },
      });
      const silence = requirePresent(response.silence, "silence");
      return { resource: silence, json: silenceJson(silence) };
    },
  });

  teamListRoute(app, peers, SILENCES, {
    description: "Every silence.",
    list: async (teamId) => {
      const response = await callUnary(client, "listSilences", { teamId });
      return response.silences.map(silenceJson);
    },
  });

  app.delete<{ Params: TeamParams & { id: string } }>(
    "/teams/:teamId/silences/:id",
    {
      config: TEAM,
      schema: {
        tags,
        summary: "Delete a silence (idempotent)",
        response: { 204: { type: "null", description: "Deleted (or there was none)." } },
      },
    },
    async (request, reply) => {
      const { teamId, id } = request.params;
      await requireTeam(peers, teamId);
      await callUnary(client, "deleteSilence", { teamId, id });
      await audit(request, { action: "silence.delete", target: { kind: "silence", id } });
      return reply.code(204).send();
    },
  );
}
