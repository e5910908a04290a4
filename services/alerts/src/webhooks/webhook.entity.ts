import { defineEntity, type InferEntity, p } from "@pulsegate/db";
import type { Severity, SignatureScheme } from "@pulsegate/vocabulary";
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
    /** How triggers are signed: the interface's X-Webhook-Signature, or Standard Webhooks (same team secret). */
    signatureScheme: p.string().$type<SignatureScheme>().default("pulsegate"),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});

export type Webhook = InferEntity<typeof WebhookSchema>;
