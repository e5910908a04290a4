import { CHANNEL_LIMITS } from "@pulsegate/limits";
import { CHANNEL_KINDS, SEVERITIES } from "@pulsegate/vocabulary";

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

export const createChannelBody = {
  type: "object",
  additionalProperties: false,
  required: ["kind", "name", "url"],
  properties: { kind: { type: "string", enum: [...CHANNEL_KINDS] }, name, url, enabled: { type: "boolean" }, key },
} as const;

export const updateChannelBody = {
  type: "object",
  additionalProperties: false,
  properties: { name, url, enabled: { type: "boolean" }, key },
} as const;

export const putPolicyBody = {
  type: "object",
  additionalProperties: false,
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
