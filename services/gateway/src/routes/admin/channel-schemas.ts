import { CHANNEL_LIMITS } from "@pulsegate/contract/limits";
import { CHANNEL_KINDS, SEVERITIES, SIGNATURE_SCHEMES } from "@pulsegate/contract/vocabulary";

/** JSON schemas of the notification admin bodies (no coercion, no unknown fields). */

const name = { type: "string", minLength: 1, maxLength: CHANNEL_LIMITS.nameMaxLength } as const;
/** The alerts service checks the URL itself (scheme, private addresses); this only bounds it. */
const url = { type: "string", minLength: 1, maxLength: CHANNEL_LIMITS.urlMaxLength } as const;
const channelId = { type: "string", minLength: 1, maxLength: CHANNEL_LIMITS.idMaxLength } as const;

const key = {
  type: "string",
  minLength: 1,
  maxLength: CHANNEL_LIMITS.keyMaxLength,
  description:
    "pagerduty: the integration's routing key; opsgenie: the API integration's key. Required for those kinds, refused for the others; sealed with the URL, never shown.",
} as const;

const signatureScheme = {
  type: "string",
  enum: [...SIGNATURE_SCHEMES],
  description:
    "webhook channels only: pulsegate (the default: X-Webhook-Signature with the team's webhook secret) or standard-webhooks (webhook-id, webhook-timestamp and webhook-signature with a whsec_ signing secret of the channel's own, answered once as signingSecret).",
} as const;

export const createChannelBody = {
  type: "object",
  additionalProperties: false,
  examples: [
    { kind: "slack", name: "ops-slack", url: "https://hooks.slack.com/services/T000/B000/XXXX" },
    {
      kind: "webhook",
      name: "pager-bridge",
      url: "https://pager.example/hooks/pulsegate",
      signatureScheme: "standard-webhooks",
    },
  ],
  required: ["kind", "name", "url"],
  properties: {
    kind: { type: "string", enum: [...CHANNEL_KINDS] },
    name,
    url,
    enabled: { type: "boolean" },
    key,
    signatureScheme,
  },
} as const;

export const rotateSigningSecretBody = {
  type: "object",
  additionalProperties: false,
  examples: [{ graceSeconds: 3600 }],
  properties: {
    graceSeconds: {
      type: "integer",
      minimum: 0,
      maximum: CHANNEL_LIMITS.maxSigningGraceSeconds,
      description: `How long the previous secret keeps signing beside the new one (default ${CHANNEL_LIMITS.defaultSigningGraceSeconds}); 0: not at all.`,
    },
  },
} as const;

export const updateChannelBody = {
  type: "object",
  additionalProperties: false,
  examples: [{ enabled: false }],
  properties: { name, url, enabled: { type: "boolean" }, key },
} as const;

export const putPolicyBody = {
  type: "object",
  additionalProperties: false,
  examples: [
    {
      routes: [
        { severities: ["sev0", "sev1"], channelIds: ["6f1c0a52-5a9e-4b5e-9a0e-2f3c7d1b8e44"] },
        { severities: ["sev2", "sev3", "sev4"], channelIds: ["0b7e4f8e-1f2a-4c1d-9a51-3d7c2b8e9f10"] },
      ],
    },
  ],
  required: ["routes"],
  properties: {
    routes: {
      type: "array",
      maxItems: CHANNEL_LIMITS.maxPolicyRoutes,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["severities", "channelIds"],
        properties: {
          severities: {
            type: "array",
            minItems: 1,
            maxItems: SEVERITIES.length,
            items: { type: "string", enum: [...SEVERITIES] },
          },
          channelIds: { type: "array", minItems: 1, maxItems: CHANNEL_LIMITS.maxChannelsPerRoute, items: channelId },
        },
      },
    },
  },
} as const;
