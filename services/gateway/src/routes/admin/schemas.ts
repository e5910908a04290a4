import { TEAM_LIMITS, WEBHOOK_LIMITS } from "@pulsegate/contract/limits";
import { PAGE_LIMITS } from "@pulsegate/contract/page-cursor";
import {
  ALERT_STATUSES,
  FILTER_OPS,
  SEVERITIES,
  SIGNATURE_SCHEMES,
  WEBHOOK_SOURCES,
} from "@pulsegate/contract/vocabulary";
import { errors } from "../../errors.ts";
import { boundedJson } from "../../validation/json-bounds-keyword.ts";

/** JSON schemas of admin request bodies and queries (no coercion, no unknown fields). */

const name = (maxLength: number) => ({ type: "string", minLength: 1, maxLength }) as const;
const quota = { type: "integer", minimum: 0, maximum: TEAM_LIMITS.quotaMax } as const;
const severity = { type: "string", enum: [...SEVERITIES] } as const;
const timestamp = { type: "string", format: "date-time" } as const;

/** A webhook's or monitor's signature scheme (docs/integrations.md). */
export const signatureSchemeField = (description: string) =>
  ({ type: "string", enum: [...SIGNATURE_SCHEMES], description }) as const;

const filterRule = {
  type: "object",
  additionalProperties: false,
  required: ["field", "op"],
  properties: {
    field: { type: "string", minLength: 1, maxLength: WEBHOOK_LIMITS.filterFieldMaxLength },
    op: { type: "string", enum: [...FILTER_OPS] },
    value: boundedJson({ maxDepth: WEBHOOK_LIMITS.filterValueMaxDepth, maxBytes: WEBHOOK_LIMITS.filterValueMaxBytes }),
  },
} as const;

const webhookFields = {
  name: name(WEBHOOK_LIMITS.nameMaxLength),
  defaultSeverity: severity,
  enabled: { type: "boolean" },
  filterRules: { type: "array", maxItems: WEBHOOK_LIMITS.maxFilterRules, items: filterRule },
  rateLimitPerMinute: { type: "integer", minimum: 1, maximum: WEBHOOK_LIMITS.maxRateLimitPerMinute },
  reopenWindowSeconds: { type: "integer", minimum: 0, maximum: WEBHOOK_LIMITS.maxReopenWindowSeconds },
  requireTimestamp: {
    type: "boolean",
    description:
      "Replay protection: triggers and resolves must send X-Webhook-Timestamp (Unix seconds, within 300 s) and sign '<timestamp>.<body>'. Default false (the interface's scheme). Applies to the pulsegate scheme only.",
  },
  signatureScheme: signatureSchemeField(
    "How triggers and resolves are signed: pulsegate (X-Webhook-Signature, the default) or standard-webhooks (webhook-id, webhook-timestamp, webhook-signature; key whsec_ + base64 of the team's webhook secret; a repeated webhook-id is answered from its first request, as an Idempotency-Key). Signed webhooks only (400 for an Alertmanager one).",
  ),
  repeatIntervalSeconds: {
    type: "integer",
    minimum: 0,
    maximum: WEBHOOK_LIMITS.maxRepeatIntervalSeconds,
    description:
      "Reminders: while an alert of this webhook stays open and unacknowledged, its notification is repeated this often (alert.reminder); 0: never (default). At least 60.",
  },
} as const;

export const createTeamBody = {
  type: "object",
  additionalProperties: false,
  examples: [{ name: "Payments", subscriptionExpiresAt: "2027-01-01T00:00:00Z", alertQuotaMonthly: 10000 }],
  required: ["name"],
  properties: {
    name: name(TEAM_LIMITS.nameMaxLength),
    subscriptionExpiresAt: timestamp,
    alertQuotaMonthly: quota,
    heartbeatQuotaMonthly: quota,
  },
} as const;

export const updateTeamBody = {
  type: "object",
  additionalProperties: false,
  examples: [{ name: "Payments EU", subscriptionExpiresAt: null }],
  properties: {
    name: name(TEAM_LIMITS.nameMaxLength),
    // null clears the expiry: the subscription never expires.
    subscriptionExpiresAt: { ...timestamp, type: ["string", "null"] },
    alertQuotaMonthly: quota,
    heartbeatQuotaMonthly: quota,
  },
} as const;

export const rotateBearerTokenBody = {
  type: "object",
  additionalProperties: false,
  examples: [{ graceSeconds: 3600 }],
  properties: {
    graceSeconds: {
      type: "integer",
      minimum: 0,
      maximum: WEBHOOK_LIMITS.maxBearerTokenGraceSeconds,
      description: `How long the replaced token keeps working (default ${WEBHOOK_LIMITS.defaultBearerTokenGraceSeconds}); 0: it stops at once.`,
    },
  },
} as const;

export const rotateSecretBody = {
  type: "object",
  additionalProperties: false,
  examples: [{ graceSeconds: 3600 }],
  properties: { graceSeconds: { type: "integer", minimum: 0, maximum: TEAM_LIMITS.maxGraceSeconds } },
} as const;

export const createWebhookBody = {
  type: "object",
  additionalProperties: false,
  examples: [
    {
      name: "checkout",
      defaultSeverity: "sev2",
      filterRules: [{ field: "metadata.env", op: "==", value: "production" }],
      requireTimestamp: true,
      repeatIntervalSeconds: 3600,
    },
    { name: "prometheus", source: "alertmanager" },
  ],
  required: ["name"],
  properties: {
    ...webhookFields,
    source: {
      type: "string",
      enum: [...WEBHOOK_SOURCES],
      description:
        "Fixed for the webhook's life. signed (default): the trigger body, signed with the team's webhook secret. alertmanager: Prometheus Alertmanager's webhook payload, authorised by the bearer token this answer holds, with no signatureScheme or requireTimestamp (400; docs/integrations.md).",
    },
  },
} as const;

export const updateWebhookBody = {
  type: "object",
  additionalProperties: false,
  examples: [{ enabled: false }, { filterRules: [{ field: "severity", op: "in", value: ["sev0", "sev1"] }] }],
  properties: webhookFields,
} as const;

/**
 * Query strings are not coerced, so numbers arrive as digit strings: the pattern is 1 to
 * PAGE_LIMITS.max (200), spelled as the OpenAPI document has always shown it.
 */
const pageQuery = {
  cursor: { type: "string", maxLength: PAGE_LIMITS.cursorMaxLength },
  limit: { type: "string", pattern: "^(?:[1-9][0-9]?|1[0-9][0-9]|200)$" },
} as const;

export const listAlertsQuery = {
  type: "object",
  additionalProperties: false,
  properties: { ...pageQuery, status: { type: "string", enum: [...ALERT_STATUSES] } },
} as const;

/** A paged list's query as it arrives (pageQuery has checked it). */
export type PageQuery = { cursor?: string; limit?: string };

/** As the services take it: "" for the first page, 0 for the default page size. */
export const pageRequest = (query: PageQuery) => ({
  cursor: query.cursor ?? "",
  limit: query.limit === undefined ? 0 : Number(query.limit),
});

/**
 * A list answered in one page (`nextCursor: null`) makes no cursor, so a cursor sent to it is
 * none of ours: refused as every list refuses one, rather than ignored.
 */
export function refuseCursor(query: unknown): void {
  const cursor = (query as { cursor?: unknown } | undefined)?.cursor;
  if (cursor !== undefined && cursor !== "") throw errors.invalidCursor();
}

export const pageOnlyQuery = {
  type: "object",
  additionalProperties: false,
  properties: pageQuery,
} as const;

/** An empty body is an empty object for the routes below that take optional fields. */
export const noBody = { type: "object", additionalProperties: false, properties: {} } as const;
