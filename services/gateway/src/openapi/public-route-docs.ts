import { IDEMPOTENCY_LIMITS, REQUEST_LIMITS } from "@pulsegate/contract/limits";
import { pingBodySchema, resolveBodySchema, triggerBodySchema } from "../validation/body-schemas.ts";
import { publicErrorResponses, rateLimitHeaders } from "./error-responses.ts";

/**
 * Route schemas of the signed public endpoints. They document; they do not validate: the order
 * of checks (DESIGN §2: signature, webhook, verification, subscription, rate limit, and only then
 * the body) is the handlers' own, so those routes compile every schema part to "valid"
 * (`documentationOnly`) and read the raw bytes themselves.
 */

export const documentationOnly = () => () => true;

const STANDARD_WEBHOOKS = "Standard Webhooks (a webhook or monitor with signatureScheme standard-webhooks):";

// Required by the scheme of the webhook or monitor: X-Webhook-Signature for pulsegate (the
// default), the three webhook-* headers for standard-webhooks; a request with neither signature is 401.
const signatureHeader = {
  type: "object",
  properties: {
    "X-Webhook-Signature": {
      type: "string",
      description:
        "The default (pulsegate) scheme: hex(HMAC-SHA256(key = the team's webhook secret text, message = the raw body bytes)): 64 hex characters, either case, optionally prefixed `sha256=`. An empty body is signed as the empty string. Checked before the body is read.",
      examples: ["5d41402abc4b2a76b9719d911017c592ae5a8e5e8f0c1a2b3c4d5e6f708192a3"],
    },
    "webhook-id": {
      type: "string",
      minLength: 1,
      maxLength: IDEMPOTENCY_LIMITS.keyMaxLength,
      description: `${STANDARD_WEBHOOKS} the message id, 1 to 255 visible ASCII characters. It is the request's idempotency key: a retry under the same id within 24 hours is answered as the first was (Idempotent-Replayed: true) and applied once.`,
      examples: ["msg_2KWPBgLlAfxdpx2AI54pPJ85f4W"],
    },
    "webhook-timestamp": {
      type: "string",
      description: `${STANDARD_WEBHOOKS} Unix seconds, within ${REQUEST_LIMITS.timestampToleranceSeconds} s of the server's clock either way.`,
      examples: ["1674087231"],
    },
    "webhook-signature": {
      type: "string",
      description: `${STANDARD_WEBHOOKS} space-separated v1,<base64 HMAC-SHA256 of '<webhook-id>.<webhook-timestamp>.<body>'> entries under the key whsec_ + base64 of the team's webhook secret; one valid entry suffices, other versions are ignored.`,
      examples: ["v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4="],
    },
    "Idempotency-Key": {
      type: "string",
      minLength: 1,
      maxLength: IDEMPOTENCY_LIMITS.keyMaxLength,
      description:
        "Optional, 1 to 255 visible ASCII characters: the client's name for this request, sent again on each retry. A copy sent again under the same key within 24 hours is answered as the first was (with Idempotent-Replayed: true) and applied once; the key with another request is 422.",
      examples: ["6f1c0a52-5a9e-4b5e-9a0e-2f3c7d1b8e44"],
    },
  },
} as const;

const tokenParam = (name: string, description: string) => ({
  type: "object",
  required: [name],
  properties: { [name]: { type: "string", description } },
});

const dryRunQuery = {
  type: "object",
  properties: {
    dryRun: {
      type: "string",
      enum: ["true", "false"],
      description:
        "true: answer what would happen (200, with dryRun: true) after every check, and write nothing: no alert, ping, occurrence, quota use or notification. Not covered by the signature.",
    },
  },
} as const;

const dryRunAnswer = {
  description: "?dryRun=true: what would happen; nothing was written.",
  type: "object",
  required: ["dryRun", "status", "message"],
  properties: {
    dryRun: { type: "boolean", enum: [true] },
    status: { type: "string" },
    message: { type: "string" },
    groupKey: { type: ["string", "null"] },
    alertId: { type: "string", description: "The alert it would fold into, reopen or resolve." },
    occurrenceCount: { type: "integer" },
    reason: { type: "string" },
  },
} as const;

export const triggerRouteSchema = {
  tags: ["public"],
  summary: "Trigger an alert",
  description:
    "Checks, in this order: signature present (401), webhook enabled (404), signature valid (401), subscription (403), the webhook's rate limit (429), JSON body (415, 400), the monthly alert quota (429). Triggers with one group_key fold into one open alert.",
  headers: signatureHeader,
  params: tokenParam("webhookUrl", "The webhook's URL token (webhookUrl in the admin API)."),
  querystring: dryRunQuery,
  body: triggerBodySchema,
  response: {
    201: {
      description: "Accepted and folded: a new alert, an occurrence added to the open one, or a resolved one reopened.",
      type: "object",
      required: ["alertId", "status", "message", "occurrenceCount"],
      properties: {
        alertId: { type: "string" },
        status: { type: "string", enum: ["created", "occurrence_added", "reopened"] },
        message: {
          type: "string",
          enum: [
            "Alert created and notifications triggered",
            "Occurrence added to existing alert",
            "Alert reopened and notifications triggered",
          ],
        },
        occurrenceCount: { type: "integer", minimum: 1 },
      },
      headers: rateLimitHeaders,
    },
    200: {
      description:
        "Accepted, but a filter rule of the webhook did not hold: no alert. Or, with ?dryRun=true, what would happen (status created, occurrence_added, reopened, filtered or quota_exhausted).",
      anyOf: [
        {
          type: "object",
          required: ["status", "message", "reason"],
          properties: {
            status: { type: "string", enum: ["filtered"] },
            message: { type: "string", enum: ["Webhook received but filtered by rules"] },
            reason: { type: "string", description: 'The first rule that failed, e.g. metadata.env == "production".' },
          },
        },
        dryRunAnswer,
      ],
      headers: rateLimitHeaders,
    },
    ...publicErrorResponses("trigger"),
  },
};

export const resolveRouteSchema = {
  tags: ["public"],
  summary: "Resolve an alert by its group key",
  description:
    "Like a PagerDuty resolve event: resolves the team's open (or acknowledged) alert with the group key and notifies as any resolve. Idempotent, never a 404 for the key: the status says what happened (resolved, already_resolved, no_alert). Checks, in this order: signature present (401), webhook enabled (404), signature valid (401), subscription (403), the webhook's rate limit, shared with triggers (429), JSON body (415, 400).",
  headers: signatureHeader,
  params: tokenParam("webhookUrl", "The webhook's URL token (webhookUrl in the admin API)."),
  querystring: dryRunQuery,
  body: resolveBodySchema,
  response: {
    200: {
      description: "What became of the key's alert (or, with ?dryRun=true, what would).",
      type: "object",
      required: ["status", "message", "groupKey"],
      properties: {
        status: { type: "string", enum: ["resolved", "already_resolved", "no_alert"] },
        message: { type: "string" },
        groupKey: { type: "string" },
        alertId: { type: "string", description: "The alert resolved (absent for no_alert)." },
        occurrenceCount: { type: "integer" },
        dryRun: { type: "boolean" },
      },
      headers: rateLimitHeaders,
    },
    ...publicErrorResponses("trigger"),
  },
};

const pingAnswer = {
  200: {
    description: "Recorded (or, while the database is away, spooled and applied later in order).",
    type: "object",
    required: ["message", "monitor", "pingStatus"],
    properties: {
      message: { type: "string", enum: ["Ping received"] },
      monitor: {
        type: "object",
        required: ["name", "status", "monitoringActive"],
        properties: {
          name: { type: "string" },
          status: { type: ["string", "null"], enum: ["idle", "up", "down", "paused", null] },
          monitoringActive: { type: "boolean" },
        },
      },
      pingStatus: { type: "string", enum: ["up", "down", "start"] },
      dryRun: { type: "boolean", description: "?dryRun=true: nothing was written." },
      outcome: { type: "string", enum: ["recorded", "quota_exhausted"], description: "Dry runs: what would happen." },
      incident: { type: ["string", "null"], enum: ["raise", "resolve", null], description: "Dry runs." },
      groupKey: { type: ["string", "null"], description: "Dry runs: the incident's group key." },
      reason: { type: ["string", "null"], description: "Dry runs: why the monitor would be down." },
    },
    headers: rateLimitHeaders,
  },
  ...publicErrorResponses("ping"),
};

const PING_CHECKS =
  "Checks, in this order: signature present (401), monitor active (404), signature valid (401), subscription (403), at most 10 accepted pings a minute per ping URL (429), the body (415, 400), the monthly heartbeat quota (429). No query parameters but dryRun: they would not be signed.";

const pingQuery = {
  type: "object",
  properties: dryRunQuery.properties,
  additionalProperties: false,
} as const;

export const pingPostRouteSchema = {
  tags: ["public"],
  summary: "Ping a heartbeat monitor",
  description: `${PING_CHECKS} Without a body the ping is up.`,
  headers: signatureHeader,
  params: tokenParam("pingUrl", "The monitor's ping URL token (pingUrl in the admin API)."),
  querystring: pingQuery,
  body: pingBodySchema,
  response: pingAnswer,
};

export const pingGetRouteSchema = {
  tags: ["public"],
  summary: "Ping a heartbeat monitor: up (no body)",
  description: `${PING_CHECKS} Signed over the empty string, so the signature never changes.`,
  headers: signatureHeader,
  params: tokenParam("pingUrl", "The monitor's ping URL token (pingUrl in the admin API)."),
  querystring: pingQuery,
  response: pingAnswer,
};

const START_DESCRIPTION =
  "A start signal: the same as a ping with status start (the body, if any, may not give another status). The next up or down ping closes the run and records its duration; a run not closed within the monitor's grace (or its maximum duration, if shorter) makes the monitor down with reason `run did not finish`.";

export const pingStartRouteSchema = {
  tags: ["public"],
  summary: "Signal that a monitored run started",
  description: `${START_DESCRIPTION} ${PING_CHECKS}`,
  headers: signatureHeader,
  params: tokenParam("pingUrl", "The monitor's ping URL token (pingUrl in the admin API)."),
  querystring: pingQuery,
  body: pingBodySchema,
  response: pingAnswer,
};

export const pingStartGetRouteSchema = {
  tags: ["public"],
  summary: "Signal that a monitored run started (no body)",
  description: `${START_DESCRIPTION} ${PING_CHECKS}`,
  headers: signatureHeader,
  params: tokenParam("pingUrl", "The monitor's ping URL token (pingUrl in the admin API)."),
  querystring: pingQuery,
  response: pingAnswer,
};
