import type {
  AlertSource,
  AlertStatus,
  ChannelKind,
  DeliveryEvent,
  DeliveryStatus,
  MonitorStatus,
  PingStatus,
  Severity,
  SignatureScheme,
  WebhookSource,
} from "./words.ts";

/**
 * Shapes of the admin API's answers (services/gateway/src/routes/admin/*-json.ts):
 * camelCase, absent timestamps and strings are null, times are ISO 8601 text.
 */

export type Team = {
  id: string;
  name: string;
  subscriptionExpiresAt: string | null;
  /** 0: unlimited. */
  alertQuotaMonthly: number;
  /** 0: unlimited. */
  heartbeatQuotaMonthly: number;
  createdAt: string | null;
  secretFingerprint: string | null;
  secretRotatedAt: string | null;
  currentSecretLastUsedAt: string | null;
  previousSecretFingerprint: string | null;
  previousSecretValidUntil: string | null;
  previousSecretLastUsedAt: string | null;
};

export type CreateTeamInput = {
  name: string;
  subscriptionExpiresAt?: string;
  alertQuotaMonthly?: number;
  heartbeatQuotaMonthly?: number;
};

/** `subscriptionExpiresAt: null` clears the expiry. */
export type UpdateTeamInput = Partial<Omit<CreateTeamInput, "subscriptionExpiresAt">> & {
  subscriptionExpiresAt?: string | null;
};

/**
 * Shown once: the only answers that carry a webhook secret. `standardWebhooksSecret` is the same
 * secret as Standard Webhooks libraries take it (`whsec_` + base64 of its text), for webhooks and
 * monitors with `signatureScheme: "standard-webhooks"`; it cannot be shown again either.
 */
export type CreatedTeam = { team: Team; webhookSecret: string; standardWebhooksSecret: string };
export type RotatedSecret = {
  webhookSecret: string;
  standardWebhooksSecret: string;
  previousValidUntil: string | null;
  team: Team;
};

/**
 * How a webhook's or monitor's requests are signed. `signingSecretFormat` (standard-webhooks only)
 * says how its key is formed; `teamSecretFingerprint` is the team's current `secretFingerprint`,
 * the secret it is formed from. Both null for "pulsegate".
 */
export type SigningFields = {
  signatureScheme: SignatureScheme;
  signingSecretFormat: string | null;
  teamSecretFingerprint: string | null;
};

export type FilterRule = { field: string; op: string; value?: unknown };

export type Webhook = {
  id: string;
  teamId: string;
  /** `signed` (the trigger endpoint) or `alertmanager` (Alertmanager's payload, with a bearer token). */
  source: WebhookSource | null;
  /** The path token of the trigger endpoint. */
  webhookUrl: string;
  /**
   * The full trigger address, as the admin request (or PUBLIC_BASE_URL) names the gateway; for an
   * Alertmanager webhook, the `url` of its `webhook_configs`.
   */
  triggerUrl: string;
  name: string;
  defaultSeverity: Severity | null;
  enabled: boolean;
  filterRules: FilterRule[];
  rateLimitPerMinute: number;
  reopenWindowSeconds: number;
  /** Alertmanager webhooks: until when the bearer token replaced by the last rotation still works. */
  previousBearerTokenValidUntil: string | null;
  /** null for an Alertmanager webhook: it signs nothing (its bearer token is checked instead). */
  signatureScheme: SignatureScheme | null;
  createdAt: string | null;
  updatedAt: string | null;
} & Omit<SigningFields, "signatureScheme">;

export type UpdateWebhookInput = {
  name?: string;
  defaultSeverity?: Severity;
  enabled?: boolean;
  filterRules?: FilterRule[];
  rateLimitPerMinute?: number;
  reopenWindowSeconds?: number;
  /** Signed webhooks: "pulsegate" (X-Webhook-Signature, the default) or "standard-webhooks". */
  signatureScheme?: SignatureScheme;
};
/** `source` is fixed at creation (default `signed`). */
export type CreateWebhookInput = UpdateWebhookInput & { name: string; source?: WebhookSource };

/** An Alertmanager webhook comes with its bearer token, shown this once. */
export type CreatedWebhook = { webhook: Webhook; bearerToken?: string };
export type RotatedBearerToken = { bearerToken: string; previousValidUntil: string | null; webhook: Webhook };

export type Alert = {
  id: string;
  teamId: string;
  status: AlertStatus;
  groupKey: string | null;
  title: string;
  description: string;
  severity: Severity | null;
  occurrenceCount: number;
  source: AlertSource | null;
  sourceId: string;
  metadata: unknown;
  firstSeenAt: string | null;
  lastSeenAt: string | null;
  acknowledgedAt: string | null;
  resolvedAt: string | null;
};

export type Occurrence = {
  id: string;
  alertId: string;
  source: AlertSource | null;
  sourceId: string;
  title: string;
  description: string;
  severity: Severity | null;
  metadata: unknown;
  receivedAt: string | null;
};

export type Monitor = {
  id: string;
  teamId: string;
  /** The path token of the ping endpoint. */
  pingUrl: string;
  /** The full ping address. */
  pingEndpoint: string;
  name: string;
  status: MonitorStatus | null;
  monitoringActive: boolean;
  intervalSeconds: number;
  graceSeconds: number;
  severity: Severity | null;
  reopenWindowSeconds: number;
  lastPingAt: string | null;
  lastPingStatus: PingStatus | null;
  lastReason: string | null;
  createdAt: string | null;
} & SigningFields;

export type CreateMonitorInput = {
  name: string;
  intervalSeconds?: number;
  graceSeconds?: number;
  severity?: Severity;
  reopenWindowSeconds?: number;
  /** "pulsegate" (X-Webhook-Signature, the default) or "standard-webhooks". */
  signatureScheme?: SignatureScheme;
  /** A 5-field cron expression, instead of intervalSeconds. */
  schedule?: string;
  /** The IANA time zone the schedule is read in (default UTC). */
  timezone?: string;
  /** A run (start signal to up ping) longer than this is down; 0: no maximum. */
  maxDurationSeconds?: number;
  /** Reminders while its incident stays open and unacknowledged; 0: never. */
  repeatIntervalSeconds?: number;
  requireTimestamp?: boolean;
};

/** A merge patch of a monitor: absent stays, null is none. */
export type UpdateMonitorInput = {
  name?: string;
  intervalSeconds?: number;
  graceSeconds?: number;
  severity?: Severity;
  reopenWindowSeconds?: number;
  schedule?: string | null;
  timezone?: string | null;
  maxDurationSeconds?: number | null;
  repeatIntervalSeconds?: number | null;
  requireTimestamp?: boolean;
};

/** A window in which a team's matching alerts notify no one. */
export type Silence = {
  id: string;
  teamId: string;
  name: string;
  startsAt: string;
  endsAt: string;
  recurrence: "daily" | "weekly" | null;
  matchers: { sourceIds?: string[]; groupKeyPrefix?: string; metadata?: Record<string, unknown> };
};

export type CreateSilenceInput = {
  name: string;
  startsAt: string;
  endsAt: string;
  recurrence?: "daily" | "weekly" | null;
  matchers?: Silence["matchers"];
};

export type Ping = {
  id: string;
  monitorId: string;
  status: PingStatus | null;
  reason: string | null;
  metadata: unknown;
  method: string;
  receivedAt: string | null;
};

/** The URL is a secret: only its masked form is ever shown. */
export type Channel = {
  id: string;
  teamId: string;
  kind: ChannelKind | null;
  name: string;
  maskedUrl: string;
  enabled: boolean;
  /** Why the delivery policy disabled the channel (a 410 Gone, or a day of failed deliveries); null otherwise. */
  disabledReason: string | null;
  disabledAt: string | null;
  /** Webhook channels: how deliveries are signed; null for the other kinds. */
  signatureScheme: SignatureScheme | null;
  /** standard-webhooks: when its signing secret was issued, and until when the previous one still signs. */
  signingSecretRotatedAt: string | null;
  previousSigningSecretValidUntil: string | null;
  createdAt: string | null;
  updatedAt: string | null;
};

/**
 * `url` is where the channel sends: a Slack incoming webhook, your endpoint, the PagerDuty Events v2
 * or Opsgenie alerts API, or for email `mailto:` and one or more comma-separated addresses.
 * `key`, sealed with the URL and never shown: the routing key (pagerduty) or the API integration's
 * key (opsgenie); the API requires it for those two kinds and refuses it for the others.
 */
export type CreateChannelInput = {
  kind: ChannelKind;
  name: string;
  url: string;
  enabled?: boolean;
  key?: string;
  /** Webhook channels: "standard-webhooks" gives the channel a whsec_ signing secret of its own (answered once). */
  signatureScheme?: SignatureScheme;
};
/** `signingSecret`: a standard-webhooks channel's whsec_ secret, shown this once. */
export type CreatedChannel = { channel: Channel; signingSecret?: string };
/** A standard-webhooks channel's new secret (shown once); the previous one signs too until `previousValidUntil`. */
export type RotatedSigningSecret = { signingSecret: string; previousValidUntil: string | null; channel: Channel };
/** A new `url` keeps the channel's sealed key; a new `key` replaces it. */
export type UpdateChannelInput = { name?: string; url?: string; enabled?: boolean; key?: string };

export type NotificationPolicy = {
  teamId: string;
  routes: { severities: Severity[]; channelIds: string[] }[];
  updatedAt: string | null;
};

export type Delivery = {
  id: string;
  alertId: string;
  channelId: string;
  channelKind: ChannelKind | null;
  channelName: string;
  eventType: DeliveryEvent | null;
  eventId: string;
  status: DeliveryStatus | null;
  attempts: number;
  maxAttempts: number;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  deliveredAt: string | null;
  createdAt: string | null;
};

export type ApiKeyScope = "read" | "write";

/** A team API key: `Authorization: Bearer <token>`, limited to its team. */
export type ApiKey = {
  id: string;
  teamId: string;
  name: string;
  scope: ApiKeyScope;
  /** The token's first characters, to tell keys apart. */
  tokenPrefix: string;
  createdAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
};

/** Shown once: the only answer that carries the key's token. */
export type CreatedApiKey = { apiKey: ApiKey; token: string };

/** One admin change written to a team's audit log, after it succeeded. */
export type AuditEntry = {
  id: string;
  at: string | null;
  /** Who: the admin token (no id, no name) or one of the team's API keys. */
  actor: { kind: "admin" | "api_key"; id: string | null; name: string | null };
  /** e.g. "webhook.update", "api_key.create", "alert.resolve". */
  action: string;
  target: { kind: string; id: string };
  /** A few non-secret details of the change. */
  details: Record<string, unknown>;
};

/** A page of a list; `nextCursor` is null on the last page. */
export type PageQuery = { limit?: number; cursor?: string };

/** What one service re-sealed under the current KEK (`POST /admin/v1/kek/reseal`). */
export type KekResealCounts = { resealed: number; alreadyCurrent: number; kekId: string };
export type KekResealResult = { teams: KekResealCounts; channels: KekResealCounts };
