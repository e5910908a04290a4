import { defineEntity, type InferEntity, p } from "@pulsegate/db";

/**
 * A team and its webhook secret. The secret text is never stored: only its
 * SHA-256 fingerprint and the sealed HMAC states (docs/secrets.md).
 */
export const TeamSchema = defineEntity({
  name: "Team",
  tableName: "teams",
  properties: {
    id: p.string().primary(),
    name: p.string().length(200),
    subscriptionExpiresAt: p.datetime().nullable(),
    alertQuotaMonthly: p.integer(),
    heartbeatQuotaMonthly: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    secretFingerprint: p.string().length(64),
    secretSealed: p.blob(),
    secretRotatedAt: p.datetime(),
    currentSecretLastUsedAt: p.datetime().nullable(),
    previousSecretFingerprint: p.string().length(64).nullable(),
    previousSecretSealed: p.blob().nullable(),
    previousSecretValidUntil: p.datetime().nullable(),
    previousSecretLastUsedAt: p.datetime().nullable(),
  },
});

export type Team = InferEntity<typeof TeamSchema>;
