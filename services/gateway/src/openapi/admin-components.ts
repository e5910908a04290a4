import {
  ALERT_STATUSES,
  CHANNEL_KINDS,
  DELIVERY_EVENTS,
  FILTER_OPS,
  PING_STATUSES,
  SEVERITIES,
  SIGNATURE_SCHEMES,
  WEBHOOK_SOURCES,
} from "@pulsegate/contract/vocabulary";

/**
 * The admin API's resources as OpenAPI components (shared Fastify schemas, referenced as
 * `{ $ref: "Team#" }`). They document the JSON mappers in routes/admin/*-json.ts and to-json.ts;
 * answers are serialised as those build them, not through these schemas (see app.ts).
 */

const string = { type: "string" } as const;
const nullableString = { type: ["string", "null"] } as const;
const time = { type: "string", format: "date-time" } as const;
const nullableTime = { type: ["string", "null"], format: "date-time" } as const;
const integer = { type: "integer" } as const;
const severity = { type: "string", enum: [...SEVERITIES] } as const;
const anyJson = { description: "Any JSON value." } as const;

/** How a webhook's or monitor's requests are signed, and with what key (routes/admin/signing-key.ts). */
const signingKey = {
  signatureScheme: {
    type: "string",
    enum: [...SIGNATURE_SCHEMES],
    description:
      "pulsegate: X-Webhook-Signature (hex HMAC-SHA256 of the body); standard-webhooks: webhook-id, webhook-timestamp, webhook-signature.",
  },
  signingSecretFormat: {
    ...nullableString,
    description:
      "standard-webhooks: how the key is formed (whsec_ + base64 of the team's webhook secret, shown once as standardWebhooksSecret); null for pulsegate.",
  },
  teamSecretFingerprint: {
    ...nullableString,
    description:
      "standard-webhooks: the team's current secretFingerprint, the secret the key is formed from; null for pulsegate.",
  },
} as const;

const object = (id: string, description: string, properties: Record<string, unknown>) => ({
  $id: id,
  description,
  type: "object",
  required: Object.keys(properties),
  properties,
});

export const adminComponents = [
  object("Team", "A team. Its webhook secret is never shown again after creation or rotation.", {
    id: string,
    name: string,
    subscriptionExpiresAt: { ...nullableTime, description: "null: never expires." },
    alertQuotaMonthly: { ...integer, description: "Created or reopened alerts per UTC month; 0 = unlimited." },
    heartbeatQuotaMonthly: { ...integer, description: "Accepted pings per UTC month; 0 = unlimited." },
    createdAt: time,
    secretFingerprint: { ...nullableString, description: "SHA-256 of the current secret, hex." },
    secretRotatedAt: nullableTime,
    currentSecretLastUsedAt: nullableTime,
    previousSecretFingerprint: nullableString,
    previousSecretValidUntil: nullableTime,
    previousSecretLastUsedAt: nullableTime,
  }),
  {
    $id: "FilterRule",
    description: "An accept condition; every rule of a webhook must hold.",
    type: "object",
    required: ["field", "op"],
    properties: {
      field: { type: "string", examples: ["metadata.env", "severity", "title"] },
      op: {
        type: "string",
        enum: [...FILTER_OPS],
      },
      value: anyJson,
    },
  },
  object("Webhook", "A webhook: where a team's systems send signed alert triggers, or Alertmanager its payloads.", {
    id: string,
    teamId: string,
    source: {
      type: ["string", "null"],
      enum: [...WEBHOOK_SOURCES, null],
      description:
        "signed: POST /api/alerts/trigger/{webhookUrl}, signed with the team's secret. alertmanager: POST /api/alerts/alertmanager/{webhookUrl}, Alertmanager's payload with the webhook's bearer token.",
    },
    webhookUrl: {
      ...string,
      description: "The path token of POST /api/alerts/trigger/{webhookUrl} (or /api/alerts/alertmanager/…).",
    },
    triggerUrl: {
      ...string,
      format: "uri",
      description: "Where to send: for an Alertmanager webhook, the url of its webhook_configs.",
    },
    name: string,
    defaultSeverity: severity,
    enabled: { type: "boolean" },
    filterRules: { type: "array", items: { $ref: "FilterRule#" } },
    rateLimitPerMinute: integer,
    reopenWindowSeconds: integer,
    repeatIntervalSeconds: { type: ["integer", "null"], description: "Reminder interval; null: no reminders." },
    requireTimestamp: {
      type: "boolean",
      description: "Signatures cover '<X-Webhook-Timestamp>.<body>' (replay protection; the pulsegate scheme).",
    },
    previousBearerTokenValidUntil: {
      ...nullableTime,
      description: "Alertmanager webhooks: until when the bearer token replaced by the last rotation still works.",
    },
    ...signingKey,
    signatureScheme: {
      type: ["string", "null"],
      enum: [...SIGNATURE_SCHEMES, null],
      description: `${signingKey.signatureScheme.description} null for an Alertmanager webhook, which signs nothing.`,
    },
    createdAt: time,
    updatedAt: nullableTime,
  }),
  object("Alert", "An alert: triggers and incidents with one group key fold into it.", {
    id: string,
    teamId: string,
    status: { type: "string", enum: [...ALERT_STATUSES] },
    groupKey: nullableString,
    title: string,
    description: string,
    severity,
    occurrenceCount: integer,
    source: { type: ["string", "null"], enum: ["webhook", "monitor", null] },
    sourceId: string,
    metadata: anyJson,
    firstSeenAt: time,
    lastSeenAt: time,
    acknowledgedAt: nullableTime,
    resolvedAt: nullableTime,
    repeatIntervalSeconds: { type: ["integer", "null"], description: "Reminder interval; null: no reminders." },
    nextReminderAt: { ...nullableTime, description: "When the next alert.reminder goes out; null: none will." },
    remindersSent: { ...integer, description: "Reminders sent since the alert was created or last reopened." },
    silencedBy: {
      ...nullableString,
      description: "The silence it was created or last reopened under: recorded, nobody notified.",
    },
    acknowledgedBy: {
      ...nullableString,
      description:
        'Who acknowledged it: a person ("Alice <alice@example.com>"), "API key <name>" or "admin token"; null: not recorded.',
    },
    resolvedBy: {
      ...nullableString,
      description: "Who resolved it, as acknowledgedBy; null: not recorded or resolved by its source.",
    },
  }),
  object("Silence", "A maintenance window or silence: matching alerts are recorded but notify nobody.", {
    id: string,
    teamId: string,
    name: string,
    startsAt: time,
    endsAt: time,
    recurrence: { type: ["string", "null"], enum: ["daily", "weekly", null] },
    matchers: {
      type: "object",
      properties: {
        sourceIds: { type: "array", items: string },
        groupKeyPrefix: nullableString,
        metadata: { type: "object" },
      },
    },
    active: { type: "boolean", description: "The window is open now." },
    createdAt: nullableTime,
  }),
  object("Occurrence", "One accepted trigger (or incident) folded into an alert.", {
    id: string,
    alertId: string,
    source: { type: ["string", "null"], enum: ["webhook", "monitor", null] },
    sourceId: string,
    title: string,
    description: string,
    severity,
    metadata: anyJson,
    receivedAt: time,
  }),
  object("Monitor", "A heartbeat monitor.", {
    id: string,
    teamId: string,
    pingUrl: { ...string, description: "The path token of /api/ping/{pingUrl}." },
    pingEndpoint: { ...string, format: "uri" },
    name: string,
    status: { type: ["string", "null"], enum: ["idle", "up", "down", "paused", null] },
    monitoringActive: { type: "boolean" },
    intervalSeconds: { ...integer, description: "Unused while the monitor has a schedule." },
    schedule: { ...nullableString, description: "The 5-field cron expression; null for an interval monitor." },
    timezone: { ...nullableString, description: "The schedule's IANA time zone." },
    graceSeconds: integer,
    maxDurationSeconds: { type: ["integer", "null"], description: "A longer run is down; null: no maximum." },
    severity: string,
    reopenWindowSeconds: integer,
    lastPingAt: nullableTime,
    lastPingStatus: { type: ["string", "null"], enum: [...PING_STATUSES, null] },
    lastReason: nullableString,
    nextDueAt: {
      ...nullableTime,
      description: "When the monitor goes down unless a ping comes first; null when not watched.",
    },
    runStartedAt: { ...nullableTime, description: "When the open run started (a start signal not closed yet)." },
    lastDurationMs: { type: ["integer", "null"], description: "How long the last finished run took." },
    repeatIntervalSeconds: { type: ["integer", "null"], description: "Reminder interval; null: no reminders." },
    requireTimestamp: {
      type: "boolean",
      description: "Signatures cover '<X-Webhook-Timestamp>.<body>' (replay protection; the pulsegate scheme).",
    },
    ...signingKey,
    badgeUrl: { ...string, format: "uri", description: "A public, read-only SVG status badge (unguessable token)." },
    createdAt: nullableTime,
  }),
  object("Ping", "One recorded ping.", {
    id: string,
    monitorId: string,
    status: { type: ["string", "null"], enum: ["up", "down", "start", null] },
    reason: nullableString,
    metadata: anyJson,
    method: string,
    receivedAt: time,
    durationMs: { type: ["integer", "null"], description: "For the ping that closed a run: the run's duration." },
  }),
  object("Channel", "A notification channel. Its URL is a secret: only a masked form is shown.", {
    id: string,
    teamId: string,
    kind: { type: ["string", "null"], enum: [...CHANNEL_KINDS, null] },
    name: string,
    maskedUrl: string,
    enabled: { type: "boolean" },
    disabledReason: {
      ...nullableString,
      description:
        "Why the delivery policy disabled the channel (410 Gone, or every delivery failing for a day); null once enabled again.",
    },
    disabledAt: nullableTime,
    signatureScheme: {
      type: ["string", "null"],
      enum: [...SIGNATURE_SCHEMES, null],
      description:
        "webhook channels: pulsegate (X-Webhook-Signature with the team's secret) or standard-webhooks (a whsec_ signing secret of its own); null for the other kinds.",
    },
    signingSecretRotatedAt: { ...nullableTime, description: "standard-webhooks: when its signing secret was issued." },
    previousSigningSecretValidUntil: {
      ...nullableTime,
      description: "standard-webhooks: until when the rotated-out secret signs beside the new one; null: none.",
    },
    createdAt: time,
    updatedAt: nullableTime,
  }),
  object("NotificationPolicy", "Routes from severities to channels.", {
    teamId: string,
    routes: {
      type: "array",
      items: {
        type: "object",
        required: ["severities", "channelIds"],
        properties: { severities: { type: "array", items: severity }, channelIds: { type: "array", items: string } },
      },
    },
    updatedAt: nullableTime,
  }),
  object("Delivery", "One notification of one event to one channel, with its attempts.", {
    id: { ...string, description: "Sent as X-Pulsegate-Delivery, the same on every attempt." },
    alertId: string,
    channelId: string,
    channelKind: { type: ["string", "null"], enum: [...CHANNEL_KINDS, null] },
    channelName: string,
    eventType: { type: "string", enum: [...DELIVERY_EVENTS] },
    eventId: string,
    status: { type: ["string", "null"], enum: ["pending", "delivered", "failed", "cancelled", null] },
    attempts: integer,
    maxAttempts: integer,
    nextAttemptAt: nullableTime,
    lastAttemptAt: nullableTime,
    lastStatusCode: { type: ["integer", "null"] },
    lastError: nullableString,
    deliveredAt: nullableTime,
    createdAt: time,
  }),
  object("ApiKey", "A team API key. Its token is shown once, when it is created.", {
    id: string,
    teamId: string,
    name: string,
    scope: { type: "string", enum: ["read", "write"], description: "read: GET only; write: everything of its team." },
    tokenPrefix: {
      ...string,
      description: "The token's first 12 characters, to recognise it.",
      examples: ["pgk_3q2M9xZa"],
    },
    createdAt: time,
    lastUsedAt: { ...nullableTime, description: "Written at most once a minute." },
    revokedAt: nullableTime,
  }),
  object("AuditEntry", "An admin action on a team, recorded after it succeeded.", {
    id: string,
    at: time,
    actor: {
      type: "object",
      required: ["kind", "id", "name"],
      properties: {
        kind: { type: "string", enum: ["admin", "api_key", "user"] },
        id: {
          ...nullableString,
          description: "The API key's id, or the person's subject at the identity provider; null for the admin token.",
        },
        name: { ...nullableString, description: "The API key's name, or the person's name; null for the admin token." },
        email: {
          ...nullableString,
          description: "The person's email (kind user only; null when the provider gave none).",
        },
      },
    },
    action: {
      type: "string",
      examples: ["webhook.update"],
      description:
        "team.create, team.update, team.rotate_secret, api_key.create, api_key.revoke, webhook.create, webhook.update, webhook.rotate_bearer_token, monitor.create, monitor.pause, monitor.resume, channel.create, channel.update, channel.rotate_signing_secret, channel.delete, notification_policy.put, notification_policy.delete, alert.acknowledge, alert.resolve, delivery.retry",
    },
    target: {
      type: "object",
      required: ["kind", "id"],
      properties: { kind: { type: "string", examples: ["webhook"] }, id: string },
    },
    details: { type: "object", description: "A few non-secret facts (names, changed field names)." },
  }),
] as const;

/** `{ <name>: { $ref } }`: one resource wrapped in its name. */
export const wrapped = (name: string, ref: string, description: string) => ({
  description,
  type: "object",
  required: [name],
  properties: { [name]: { $ref: `${ref}#` } },
});

/** `{ <plural>: [...], nextCursor }`: a page of a list. */
export const page = (plural: string, ref: string, description: string) => ({
  description,
  type: "object",
  required: [plural, "nextCursor"],
  properties: {
    [plural]: { type: "array", items: { $ref: `${ref}#` } },
    nextCursor: { type: ["string", "null"], description: "Pass as `cursor` for the next page; null: no more." },
  },
});
