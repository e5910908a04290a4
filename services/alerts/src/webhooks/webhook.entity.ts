import type { Severity, SignatureScheme, WebhookSource } from "@pulsegate/contract/vocabulary";
import { defineEntity, type InferEntity, p } from "@pulsegate/db";
import type { FilterRule } from "../filter-rules/index.ts";

export const WebhookSchema = defineEntity({
  name: "Webhook",
  tableName: "webhooks",
  properties: {
    id: p.string().primary(),
    teamId: p.string(),
    webhookUrl: p.string().unique(),
    name: p.string().length(200),
    defaultSeverity: p.string().$type<Severity>(),
    enabled: p.boolean(),
    filterRules: p.json<FilterRule[]>(),
    rateLimitPerMinute: p.integer(),
    reopenWindowSeconds: p.integer(),
    /** Reminders while an alert of this webhook stays open and unacknowledged; null: none. */
    repeatIntervalSeconds: p.integer().nullable(),
    /** Replay protection: signatures cover "<X-Webhook-Timestamp>.<body>", within 300 s. */
    requireTimestamp: p.boolean().default(false),
    /**
     * How triggers are signed: the interface's X-Webhook-Signature, or Standard Webhooks (same team
     * secret). Alertmanager webhooks keep the default and never read it (they sign nothing).
     */
    signatureScheme: p.string().$type<SignatureScheme>().default("pulsegate"),
    /** Fixed at creation: `signed` (the interface's trigger) or `alertmanager` (bearer token). */
    source: p.string().$type<WebhookSource>().default("signed"),
    /** Alertmanager webhooks: the SHA-256 of the bearer token (bearer-token.ts); the token is never stored. */
    bearerTokenHash: p.blob().nullable(),
    /** The token before the last rotation, working until previousBearerTokenValidUntil. */
    previousBearerTokenHash: p.blob().nullable(),
    previousBearerTokenValidUntil: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});

export type Webhook = InferEntity<typeof WebhookSchema>;
