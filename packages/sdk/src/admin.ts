import type {
  Alert,
  ApiKey,
  ApiKeyScope,
  AuditEntry,
  Channel,
  CreateChannelInput,
  CreatedApiKey,
  CreatedChannel,
  CreatedTeam,
  CreatedWebhook,
  CreateMonitorInput,
  CreateSilenceInput,
  CreateTeamInput,
  CreateWebhookInput,
  Delivery,
  KekResealResult,
  Monitor,
  NotificationPolicy,
  Occurrence,
  PageQuery,
  Ping,
  RotatedBearerToken,
  RotatedSecret,
  RotatedSigningSecret,
  Silence,
  Team,
  UpdateChannelInput,
  UpdateMonitorInput,
  UpdateTeamInput,
  UpdateWebhookInput,
  Webhook,
} from "./admin-types.ts";
import { joinBase } from "./endpoint-url.ts";
import type { RetryPolicy } from "./retry-policy.ts";
import { type RetryEvent, sendRequest } from "./send-request.ts";
import { resolveTransport, type TransportOptions } from "./transport-options.ts";
import type { AlertStatus } from "./words.ts";

export type AdminOptions = TransportOptions & {
  baseUrl: string;
  /** The admin token, or a team API key (same header). */
  token: string;
  onRetry?: ((event: RetryEvent) => void) | undefined;
  signal?: AbortSignal | undefined;
};

type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

const seg = encodeURIComponent;

function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) search.set(key, String(value));
  const text = search.toString();
  return text === "" ? "" : `?${text}`;
}

/**
 * The admin API (`/admin/v1`, `Authorization: Bearer`). Each method answers
 * the JSON the API sends, typed. 429 and 503 are tried again after Retry-After;
 * a request that got no answer is sent again only when repeating it is harmless
 * (never a POST, which could create twice).
 */
export class PulsegateAdmin {
  readonly baseUrl: string;
  readonly #token: string;
  readonly #transport: { timeoutMs: number; retry: RetryPolicy };
  readonly #onRetry: AdminOptions["onRetry"];
  readonly #signal: AbortSignal | undefined;

  constructor(options: AdminOptions) {
    this.baseUrl = joinBase(options.baseUrl);
    if (!options.token) throw new TypeError("PulsegateAdmin: a token is needed");
    this.#token = options.token;
    this.#transport = resolveTransport(options);
    this.#onRetry = options.onRetry;
    this.#signal = options.signal;
  }

  /** Any admin call: `path` is below /admin/v1. */
  async request<T>(method: Method, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.#token}` };
    if (body !== undefined) headers["content-type"] = "application/json";
    const response = await sendRequest({
      method,
      url: `${this.baseUrl}/admin/v1${path}`,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      ...this.#transport,
      retryNetworkErrors: method !== "POST",
      signal: this.#signal,
      onRetry: this.#onRetry,
    });
    return response.body as T;
  }

  // Teams
  /** Every team, oldest first (the admin token only). */
  listTeams(page: PageQuery = {}): Promise<{ teams: Team[]; nextCursor: string | null }> {
    return this.request("GET", `/teams${query(page)}`);
  }
  createTeam(input: CreateTeamInput): Promise<CreatedTeam> {
    return this.request("POST", "/teams", input);
  }
  getTeam(teamId: string): Promise<{ team: Team }> {
    return this.request("GET", `/teams/${seg(teamId)}`);
  }
  updateTeam(teamId: string, input: UpdateTeamInput): Promise<{ team: Team }> {
    return this.request("PATCH", `/teams/${seg(teamId)}`, input);
  }
  /** Deletes the team and everything of it; its pings and triggers answer 404 at once. */
  async deleteTeam(teamId: string): Promise<void> {
    await this.request("DELETE", `/teams/${seg(teamId)}`);
  }
  /** This month's alerts and heartbeats against the team's quotas. */
  getUsage(teamId: string): Promise<Record<string, unknown>> {
    return this.request("GET", `/teams/${seg(teamId)}/usage`);
  }
  rotateSecret(teamId: string, input: { graceSeconds?: number } = {}): Promise<RotatedSecret> {
    return this.request("POST", `/teams/${seg(teamId)}/webhook-secret/rotate`, input);
  }

  // Webhooks
  /** With `source: "alertmanager"`, the answer holds the webhook's bearer token, shown this once. */
  createWebhook(teamId: string, input: CreateWebhookInput): Promise<CreatedWebhook> {
    return this.request("POST", `/teams/${seg(teamId)}/webhooks`, input);
  }
  listWebhooks(teamId: string): Promise<{ webhooks: Webhook[]; nextCursor: string | null }> {
    return this.request("GET", `/teams/${seg(teamId)}/webhooks`);
  }
  getWebhook(id: string): Promise<{ webhook: Webhook }> {
    return this.request("GET", `/webhooks/${seg(id)}`);
  }
  updateWebhook(id: string, input: UpdateWebhookInput): Promise<{ webhook: Webhook }> {
    return this.request("PATCH", `/webhooks/${seg(id)}`, input);
  }
  async deleteWebhook(id: string): Promise<void> {
    await this.request("DELETE", `/webhooks/${seg(id)}`);
  }
  /** An Alertmanager webhook's new bearer token; the replaced one works for `graceSeconds` (default a day). */
  rotateWebhookBearerToken(id: string, input: { graceSeconds?: number } = {}): Promise<RotatedBearerToken> {
    return this.request("POST", `/webhooks/${seg(id)}/bearer-token/rotate`, input);
  }

  // Monitors
  createMonitor(teamId: string, input: CreateMonitorInput): Promise<{ monitor: Monitor }> {
    return this.request("POST", `/teams/${seg(teamId)}/monitors`, input);
  }
  listMonitors(teamId: string): Promise<{ monitors: Monitor[]; nextCursor: string | null }> {
    return this.request("GET", `/teams/${seg(teamId)}/monitors`);
  }
  getMonitor(id: string): Promise<{ monitor: Monitor }> {
    return this.request("GET", `/monitors/${seg(id)}`);
  }
  /** A merge patch: fields left out stay; null means none (schedule, timezone, maxDurationSeconds, repeatIntervalSeconds). */
  updateMonitor(id: string, input: UpdateMonitorInput): Promise<{ monitor: Monitor }> {
    return this.request("PATCH", `/monitors/${seg(id)}`, input);
  }
  async deleteMonitor(id: string): Promise<void> {
    await this.request("DELETE", `/monitors/${seg(id)}`);
  }
  pauseMonitor(id: string): Promise<{ monitor: Monitor }> {
    return this.request("POST", `/monitors/${seg(id)}/pause`);
  }
  resumeMonitor(id: string): Promise<{ monitor: Monitor }> {
    return this.request("POST", `/monitors/${seg(id)}/resume`);
  }
  listPings(id: string, page: PageQuery = {}): Promise<{ pings: Ping[]; nextCursor: string | null }> {
    return this.request("GET", `/monitors/${seg(id)}/pings${query(page)}`);
  }

  // Alerts
  listAlerts(
    teamId: string,
    filter: PageQuery & { status?: AlertStatus } = {},
  ): Promise<{ alerts: Alert[]; nextCursor: string | null }> {
    return this.request("GET", `/teams/${seg(teamId)}/alerts${query(filter)}`);
  }
  getAlert(id: string): Promise<{ alert: Alert }> {
    return this.request("GET", `/alerts/${seg(id)}`);
  }
  acknowledgeAlert(id: string): Promise<{ alert: Alert }> {
    return this.request("POST", `/alerts/${seg(id)}/acknowledge`);
  }
  resolveAlert(id: string): Promise<{ alert: Alert }> {
    return this.request("POST", `/alerts/${seg(id)}/resolve`);
  }
  listOccurrences(id: string, page: PageQuery = {}): Promise<{ occurrences: Occurrence[]; nextCursor: string | null }> {
    return this.request("GET", `/alerts/${seg(id)}/occurrences${query(page)}`);
  }
  listDeliveries(alertId: string): Promise<{ deliveries: Delivery[]; nextCursor: string | null }> {
    return this.request("GET", `/alerts/${seg(alertId)}/deliveries`);
  }
  retryDelivery(id: string): Promise<{ delivery: Delivery }> {
    return this.request("POST", `/deliveries/${seg(id)}/retry`);
  }

  // Channels and the notification policy
  createChannel(teamId: string, input: CreateChannelInput): Promise<CreatedChannel> {
    return this.request("POST", `/teams/${seg(teamId)}/channels`, input);
  }
  rotateChannelSigningSecret(id: string, input: { graceSeconds?: number } = {}): Promise<RotatedSigningSecret> {
    return this.request("POST", `/channels/${seg(id)}/signing-secret/rotate`, input);
  }
  listChannels(teamId: string): Promise<{ channels: Channel[]; nextCursor: string | null }> {
    return this.request("GET", `/teams/${seg(teamId)}/channels`);
  }
  updateChannel(id: string, input: UpdateChannelInput): Promise<{ channel: Channel }> {
    return this.request("PATCH", `/channels/${seg(id)}`, input);
  }
  async deleteChannel(id: string): Promise<void> {
    await this.request("DELETE", `/channels/${seg(id)}`);
  }
  /** Sends a test notification through the channel now; the answer says how it went. */
  testChannel(id: string): Promise<Record<string, unknown>> {
    return this.request("POST", `/channels/${seg(id)}/test`);
  }
  getNotificationPolicy(teamId: string): Promise<{ policy: NotificationPolicy | null }> {
    return this.request("GET", `/teams/${seg(teamId)}/notification-policy`);
  }
  putNotificationPolicy(teamId: string, routes: NotificationPolicy["routes"]): Promise<{ policy: NotificationPolicy }> {
    return this.request("PUT", `/teams/${seg(teamId)}/notification-policy`, { routes });
  }
  async deleteNotificationPolicy(teamId: string): Promise<void> {
    await this.request("DELETE", `/teams/${seg(teamId)}/notification-policy`);
  }

  // Silences
  createSilence(teamId: string, input: CreateSilenceInput): Promise<{ silence: Silence }> {
    return this.request("POST", `/teams/${seg(teamId)}/silences`, input);
  }
  listSilences(teamId: string): Promise<{ silences: Silence[]; nextCursor?: string | null }> {
    return this.request("GET", `/teams/${seg(teamId)}/silences`);
  }
  async deleteSilence(teamId: string, id: string): Promise<void> {
    await this.request("DELETE", `/teams/${seg(teamId)}/silences/${seg(id)}`);
  }

  // Team API keys and the audit log
  createApiKey(teamId: string, input: { name: string; scope: ApiKeyScope }): Promise<CreatedApiKey> {
    return this.request("POST", `/teams/${seg(teamId)}/api-keys`, input);
  }
  listApiKeys(teamId: string, page: PageQuery = {}): Promise<{ apiKeys: ApiKey[]; nextCursor: string | null }> {
    return this.request("GET", `/teams/${seg(teamId)}/api-keys${query(page)}`);
  }
  getApiKey(id: string): Promise<{ apiKey: ApiKey }> {
    return this.request("GET", `/api-keys/${seg(id)}`);
  }
  revokeApiKey(id: string): Promise<{ apiKey: ApiKey }> {
    return this.request("POST", `/api-keys/${seg(id)}/revoke`);
  }
  listAuditLog(teamId: string, page: PageQuery = {}): Promise<{ entries: AuditEntry[]; nextCursor: string | null }> {
    return this.request("GET", `/teams/${seg(teamId)}/audit-log${query(page)}`);
  }

  // KEK rotation (admin token only): re-seal every team secret and channel credential under the current KEK.
  resealUnderCurrentKek(): Promise<KekResealResult> {
    return this.request("POST", "/kek/reseal");
  }
}
