import { PING_STATUSES, SEVERITIES } from "@pulsegate/contract/vocabulary";
import {
  DESCRIPTION_MAX,
  GROUP_KEY_MAX,
  METADATA_MAX_BYTES,
  METADATA_MAX_DEPTH,
  REASON_MAX,
  TITLE_MAX,
} from "./request-bodies.ts";

/**
 * JSON Schemas of the trigger and ping bodies, for the OpenAPI document and for callers who
 * validate before sending. They are built from the limits parseTriggerBody and parsePingBody
 * enforce (request-bodies.ts), and never stricter than those (a unit test holds them to it). What JSON
 * Schema cannot say is in the descriptions: metadata's depth and size and its numbers, a title's
 * visible text, and text that cannot be stored. The public routes do not hand these to Fastify: the
 * signature is checked before the body is even parsed (DESIGN §2), and the parsers answer with
 * their own messages.
 */

const metadata = {
  type: "object",
  description: `Any JSON object: at most ${METADATA_MAX_DEPTH} levels deep (the object itself is level 1) and ${METADATA_MAX_BYTES} bytes as UTF-8 JSON. Its numbers are stored as sent, so a number a double cannot hold exactly (1e400, -0, 123456789012345678901234567890) is refused: send such values as strings. Filter rules can test its fields (metadata.env).`,
  examples: [{ env: "production", region: "eu-west-1" }],
} as const;

const text = (max: number, description: string) => ({ type: "string", maxLength: max, description }) as const;

const STORABLE =
  "Lengths count Unicode code points. No string anywhere in the body may hold U+0000 or an unpaired surrogate (400 naming the field).";

export const triggerBodySchema = {
  $id: "TriggerBody",
  title: "Alert trigger",
  description: `Unknown top-level fields are ignored. ${STORABLE}`,
  type: "object",
  required: ["title"],
  properties: {
    title: {
      ...text(TITLE_MAX, "What happened: at least one visible character (not only white space)."),
      minLength: 1,
    },
    description: text(DESCRIPTION_MAX, "More about it."),
    severity: { type: "string", enum: [...SEVERITIES], description: "Default: the webhook's defaultSeverity." },
    metadata,
    group_key: text(
      GROUP_KEY_MAX,
      "Triggers with one key fold into one open alert of the team (and reopen a recently resolved one); none: a new alert each time.",
    ),
  },
  examples: [
    {
      title: "Checkout error rate above 5%",
      severity: "sev1",
      group_key: "checkout-errors",
      metadata: { env: "production" },
    },
  ],
} as const;

export const pingBodySchema = {
  $id: "PingBody",
  title: "Heartbeat ping",
  description: `Optional: no body at all means {"status": "up"}. Other top-level fields are folded into metadata (an explicit metadata key wins over a folded field, group_key over both). ${STORABLE}`,
  type: "object",
  properties: {
    status: {
      type: "string",
      enum: [...PING_STATUSES],
      description:
        "Default: up. down raises an incident (an alert) at once. start opens a run: the next up or down ping closes it and records its duration; a run not closed within the monitor's grace is down (run did not finish).",
    },
    reason: text(REASON_MAX, "Why (shown on the incident)."),
    group_key: text(GROUP_KEY_MAX, "The incident's group key; default monitor:<id>. Also copied into metadata."),
    metadata,
  },
  additionalProperties: true,
  examples: [{ status: "down", reason: "disk full on /var/backups", host: "db-1" }],
} as const;

export const resolveBodySchema = {
  $id: "ResolveBody",
  title: "Resolve by group key",
  description: `Other top-level fields are ignored. ${STORABLE}`,
  type: "object",
  required: ["group_key"],
  properties: {
    group_key: { ...text(GROUP_KEY_MAX, "The group key of the team's open alert to resolve."), minLength: 1 },
  },
  examples: [{ group_key: "checkout-errors" }],
} as const;
