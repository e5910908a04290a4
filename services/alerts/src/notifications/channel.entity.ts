import { defineEntity, type InferEntity, p } from "@pulsegate/db";
import type { ChannelKind } from "@pulsegate/vocabulary";

/**
 * A notification channel. Its URL (and key) is only in `credentialsSealed`, which only the
 * dispatcher opens; `maskedUrl` is what the API shows. Deleting sets `deletedAt` and keeps the
 * row: deliveries refer to it.
 */
export const ChannelSchema = defineEntity({
  name: "Channel",
  tableName: "channels",
  properties: {
    id: p.string().primary(),
    teamId: p.string(),
    kind: p.string().$type<ChannelKind>(),
    name: p.string().length(200),
    credentialsSealed: p.blob(),
    maskedUrl: p.string(),
    enabled: p.boolean(),
    /** Why the delivery policy disabled the channel, and when (channel-health.ts). */
    disabledReason: p.string().nullable(),
    disabledAt: p.datetime().nullable(),
    /** The delivery policy's run of failures (channel-health.ts). */
    failingSince: p.datetime().nullable(),
    failedDeliveries: p.integer().default(0),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    deletedAt: p.datetime().nullable(),
  },
});

export type Channel = InferEntity<typeof ChannelSchema>;
