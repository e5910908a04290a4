import type { UnaryHandlers } from "@pulsegate/grpc";
import type { alerts } from "@pulsegate/proto";
import { isActive, type Silence } from "../silences/silence.ts";
import type { SilenceService } from "../silences/silence-service.ts";

export function silenceToProto(silence: Silence, now: Date = new Date()): alerts.Silence {
  return {
    id: silence.id,
    teamId: silence.teamId,
    name: silence.name,
    startsAt: silence.startsAt,
    endsAt: silence.endsAt,
    recurrence: silence.recurrence ?? "",
    matchers: {
      sourceIds: silence.matchers.sourceIds,
      groupKeyPrefix: silence.matchers.groupKeyPrefix,
      metadataJson:
        Object.keys(silence.matchers.metadata).length === 0 ? "" : JSON.stringify(silence.matchers.metadata),
    },
    createdAt: silence.createdAt,
    active: isActive(silence, now),
  };
}

/** The silence RPCs: translation only. */
export function silenceMethods(
  silences: SilenceService,
): Pick<UnaryHandlers<alerts.AlertsServiceServer>, "createSilence" | "listSilences" | "deleteSilence"> {
  return {
    createSilence: async (request: alerts.CreateSilenceRequest) => ({
      silence: silenceToProto(
        await silences.create(request.teamId, {
          name: request.name,
          startsAt: request.startsAt,
          endsAt: request.endsAt,
          recurrence: request.recurrence,
          sourceIds: request.matchers?.sourceIds ?? [],
          groupKeyPrefix: request.matchers?.groupKeyPrefix ?? "",
          metadataJson: request.matchers?.metadataJson ?? "",
        }),
      ),
    }),
    listSilences: async (request: alerts.ListSilencesRequest) => ({
      silences: (await silences.list(request.teamId)).map((silence) => silenceToProto(silence)),
    }),
    deleteSilence: async (request: alerts.DeleteSilenceRequest) => {
      await silences.delete(request.teamId, request.id);
      return {};
    },
  };
}
