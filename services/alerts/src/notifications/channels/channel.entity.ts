import type { ChannelKind, SignatureScheme } from "@pulsegate/contract/vocabulary";
import { defineEntity, type InferEntity, p } from "@pulsegate/db";

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
    /** How a webhook channel signs; null for the other kinds. */
    signatureScheme: p.string().$type<SignatureScheme>().nullable(),
    /** A standard-webhooks channel: when its signing secret (sealed above) was issued, and until when the previous one signs too. */
    signingSecretRotatedAt: p.datetime().nullable(),
    previousSigningSecretValidUntil: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    deletedAt: p.datetime().nullable(),
  },
});

export type Channel = InferEntity<typeof ChannelSchema>;
