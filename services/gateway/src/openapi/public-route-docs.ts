import { pingBodySchema, triggerBodySchema } from "../validation/body-schemas.ts";
import { publicErrorResponses, rateLimitHeaders } from "./error-responses.ts";

/**
 * Route schemas of the signed public endpoints. They document; they do not validate: the order
 * of checks (DESIGN §2: signature, webhook, verification, subscription, rate limit, and only then
 * the body) is the handlers' own, so those routes compile every schema part to "valid"
 * (`documentationOnly`) and read the raw bytes themselves.
 */

export const documentationOnly = () => () => true;

const signatureHeader = {
  type: "object",
  required: ["X-Webhook-Signature"],
  properties: {
    "X-Webhook-Signature": {
      type: "string",
      description:
        "hex(HMAC-SHA256(key = the team's webhook secret text, message = the raw body bytes)): 64 hex characters, either case, optionally prefixed `sha256=`. An empty body is signed as the empty string. Checked before the body is read.",
      examples: ["5d41402abc4b2a76b9719d911017c592ae5a8e5e8f0c1a2b3c4d5e6f708192a3"],
    },
  },
} as const;

const tokenParam = (name: string, description: string) => ({
  type: "object",
  required: [name],
  properties: { [name]: { type: "string", description } },
});

export const triggerRouteSchema = {
  tags: ["public"],
  summary: "Trigger an alert",
  description:
    "Checks, in this order: signature present (401), webhook enabled (404), signature valid (401), subscription (403), the webhook's rate limit (429), JSON body (415, 400), the monthly alert quota (429). Triggers with one group_key fold into one open alert.",
  headers: signatureHeader,
  params: tokenParam("webhookUrl", "The webhook's URL token (webhookUrl in the admin API)."),
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
      description: "Accepted, but a filter rule of the webhook did not hold: no alert.",
      type: "object",
      required: ["status", "message", "reason"],
      properties: {
        status: { type: "string", enum: ["filtered"] },
        message: { type: "string", enum: ["Webhook received but filtered by rules"] },
        reason: { type: "string", description: 'The first rule that failed, e.g. metadata.env == "production".' },
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
      pingStatus: { type: "string", enum: ["up", "down"] },
    },
    headers: rateLimitHeaders,
  },
  ...publicErrorResponses("ping"),
};

const PING_CHECKS =
  "Checks, in this order: signature present (401), monitor active (404), signature valid (401), subscription (403), at most 10 accepted pings a minute per ping URL (429), the body (415, 400), the monthly heartbeat quota (429). No query parameters: they would not be signed.";

export const pingPostRouteSchema = {
  tags: ["public"],
  summary: "Ping a heartbeat monitor",
  description: `${PING_CHECKS} Without a body the ping is up.`,
  headers: signatureHeader,
  params: tokenParam("pingUrl", "The monitor's ping URL token (pingUrl in the admin API)."),
  body: pingBodySchema,
  response: pingAnswer,
};

export const pingGetRouteSchema = {
  tags: ["public"],
  summary: "Ping a heartbeat monitor: up (no body)",
  description: `${PING_CHECKS} Signed over the empty string, so the signature never changes.`,
  headers: signatureHeader,
  params: tokenParam("pingUrl", "The monitor's ping URL token (pingUrl in the admin API)."),
  response: pingAnswer,
};
