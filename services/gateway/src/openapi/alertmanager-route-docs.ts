import { ALERT_LIMITS, ALERTMANAGER_LIMITS } from "@pulsegate/contract/limits";
import { alertmanagerErrorResponses, rateLimitHeaders } from "./error-responses.ts";

/**
 * The Alertmanager endpoint's route schema. Like the signed endpoints' it documents and does not
 * validate (see documentationOnly): the token is checked before the body is read.
 */

const labels = {
  type: "object",
  additionalProperties: { type: "string" },
} as const;

const alertmanagerAlert = {
  type: "object",
  required: ["status", "labels", "fingerprint"],
  properties: {
    status: {
      type: "string",
      enum: ["firing", "resolved"],
      description: "firing: a trigger; resolved: resolves the team's open alert with this fingerprint as group key.",
    },
    labels: {
      ...labels,
      description:
        "Stored in metadata.labels. alertname is the title without a summary; severity sets the severity (critical sev1, error sev2, warning sev3, info sev4, sev0…sev4 as they are; else the webhook's default).",
    },
    annotations: {
      ...labels,
      description: `Stored in metadata.annotations. summary is the title, description the description (shortened to ${ALERT_LIMITS.titleMaxLength} and ${ALERT_LIMITS.descriptionMaxLength} characters, ending in "…").`,
    },
    generatorURL: { type: "string", description: "Stored in metadata.generatorURL." },
    fingerprint: {
      type: "string",
      minLength: 1,
      maxLength: ALERTMANAGER_LIMITS.fingerprintMaxLength,
      description: "The group key: every notification of one Alertmanager alert folds into one Pulsegate alert.",
    },
    startsAt: { type: "string", description: "Not read." },
    endsAt: { type: "string", description: "Not read." },
  },
} as const;

const outcome = {
  type: "object",
  required: ["fingerprint", "status"],
  properties: {
    fingerprint: { type: "string" },
    status: {
      type: "string",
      enum: [
        "created",
        "occurrence_added",
        "reopened",
        "filtered",
        "quota_exhausted",
        "resolved",
        "already_resolved",
        "no_alert",
        "invalid",
      ],
      description:
        "A firing alert: the trigger endpoint's statuses, or quota_exhausted (the team's monthly alert quota: not recorded). A resolved one: the resolve endpoint's. invalid: this alert holds text that cannot be stored, or labels and annotations over the metadata bound (details); the others are applied.",
    },
    alertId: { type: "string" },
    occurrenceCount: { type: "integer" },
    reason: { type: "string", description: "filtered: the first filter rule that failed." },
    details: {
      type: "array",
      items: {
        type: "object",
        required: ["field", "message"],
        properties: { field: { type: "string" }, message: { type: "string" } },
      },
    },
  },
} as const;

export const alertmanagerRouteSchema = {
  tags: ["integrations"],
  summary: "Receive Prometheus Alertmanager's webhook payload",
  description: `For a webhook created with source alertmanager: paste its triggerUrl into Alertmanager's webhook_configs, its bearer token into http_config.authorization.credentials, and set send_resolved: true and max_alerts: ${ALERTMANAGER_LIMITS.maxAlertsPerPayload}. Each alert is one trigger (group key: its fingerprint) or, resolved, one resolve by that key; filter rules, silences, quotas and notifications apply as to any trigger. Checks, in this order: bearer token present (401), webhook enabled and an Alertmanager one (404), token valid (401), subscription (403), the webhook's rate limit, once per payload (429), JSON body (415, 400: at most ${ALERTMANAGER_LIMITS.maxAlertsPerPayload} alerts). Alertmanager sends a 5xx again, not a 4xx. Details: docs/integrations.md.`,
  headers: {
    type: "object",
    required: ["Authorization"],
    properties: {
      Authorization: {
        type: "string",
        description:
          "Bearer and the webhook's bearer token (pgam_…), as Alertmanager's http_config.authorization sends it.",
        examples: ["Bearer pgam_…"],
      },
    },
  },
  params: {
    type: "object",
    required: ["webhookUrl"],
    properties: {
      webhookUrl: {
        type: "string",
        description: "The Alertmanager webhook's URL token (webhookUrl in the admin API).",
      },
    },
  },
  body: {
    title: "Alertmanager webhook payload (version 4)",
    description:
      "Alertmanager's own format; fields not named here (receiver, groupLabels, commonLabels, externalURL…) are not read.",
    type: "object",
    required: ["version", "alerts"],
    properties: {
      version: { type: "string", enum: ["4"] },
      alerts: { type: "array", maxItems: ALERTMANAGER_LIMITS.maxAlertsPerPayload, items: alertmanagerAlert },
    },
  },
  response: {
    200: {
      description: "Received: each alert's outcome, in the payload's order.",
      type: "object",
      required: ["message", "alerts"],
      properties: {
        message: { type: "string", enum: ["Alertmanager payload received"] },
        alerts: { type: "array", items: outcome },
      },
      headers: rateLimitHeaders,
    },
    ...alertmanagerErrorResponses,
  },
};
