import { randomUUID } from "node:crypto";
import { PulsegateAdmin } from "./admin.ts";
import type {
  PingInput,
  PingOptions,
  PingResult,
  TriggerInput,
  TriggerOptions,
  TriggerResult,
} from "./caller-types.ts";
import { endpointUrl } from "./endpoint-url.ts";
import type { RetryPolicy } from "./retry-policy.ts";
import { type RetryEvent, sendRequest } from "./send-request.ts";
import { SIGNATURE_HEADER, sign } from "./signature.ts";
import { resolveTransport, type TransportOptions } from "./transport-options.ts";

export type ClientOptions = TransportOptions & {
  /** Where the gateway answers, e.g. "https://pulsegate.example"; needed unless full URLs are passed. */
  baseUrl?: string | undefined;
  /** The team's webhook secret: signs triggers and pings. */
  secret?: string | undefined;
  /** The admin token or a team API key, for `client.admin`. */
  adminToken?: string | undefined;
  /** Told before each wait between attempts. */
  onRetry?: ((event: RetryEvent) => void) | undefined;
};

/** The wire form of a trigger: snake_case group_key, absent fields left out. */
/** One key per call, sent on each of its attempts: the service applies the request once. */
const IDEMPOTENCY_HEADER = "idempotency-key";

function triggerBody(input: TriggerInput): Record<string, unknown> {
  const { groupKey, ...rest } = input;
  return groupKey === undefined ? rest : { ...rest, group_key: groupKey };
}

/** `?dryRun=true`: the answer says what would happen, and nothing is stored. */
const withDryRun = (url: string, dryRun: boolean | undefined) => (dryRun ? `${url}?dryRun=true` : url);

function pingBody(input: PingInput | undefined): Record<string, unknown> | undefined {
  if (input === undefined) return undefined;
  const { groupKey, ...rest } = input;
  const body: Record<string, unknown> = groupKey === undefined ? rest : { ...rest, group_key: groupKey };
  for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
  return Object.keys(body).length === 0 ? undefined : body;
}

/**
 * Sends signed triggers and pings. Each body is serialised once; those bytes
 * are signed and sent on every attempt, with one Idempotency-Key per call. 429
 * and 503 are tried again after Retry-After (capped), and so is a request that
 * got no answer: under its key, one the service applied already is answered as
 * it was the first time and not applied again.
 */
export class PulsegateClient {
  readonly baseUrl: string | undefined;
  readonly #secret: string | undefined;
  readonly #adminToken: string | undefined;
  readonly #transport: { timeoutMs: number; retry: RetryPolicy };
  readonly #onRetry: ClientOptions["onRetry"];
  #admin: PulsegateAdmin | undefined;

  constructor(options: ClientOptions = {}) {
    this.baseUrl = options.baseUrl;
    this.#secret = options.secret;
    this.#adminToken = options.adminToken;
    this.#transport = resolveTransport(options);
    this.#onRetry = options.onRetry;
  }

  /** The admin API with the client's adminToken (a TypeError without one). */
  get admin(): PulsegateAdmin {
    if (this.#adminToken === undefined) throw new TypeError("PulsegateClient: adminToken is needed for the admin API");
    if (!this.baseUrl) throw new TypeError("PulsegateClient: baseUrl is needed for the admin API");
    this.#admin ??= new PulsegateAdmin({
      baseUrl: this.baseUrl,
      token: this.#adminToken,
      timeoutMs: this.#transport.timeoutMs,
      retries: this.#transport.retry.retries,
      retryDelay: this.#transport.retry,
      onRetry: this.#onRetry,
    });
    return this.#admin;
  }

  /** POST /api/alerts/trigger/{webhookUrl}; `webhookUrl` is the token or the full trigger URL. */
  async trigger(webhookUrl: string, body: TriggerInput, options: TriggerOptions = {}): Promise<TriggerResult> {
    const url = withDryRun(endpointUrl(webhookUrl, "trigger", this.baseUrl), options.dryRun);
    const raw = JSON.stringify(triggerBody(body));
    const response = await sendRequest({
      method: "POST",
      url,
      headers: {
        "content-type": "application/json",
        [SIGNATURE_HEADER]: sign(this.#requireSecret(), raw),
        [IDEMPOTENCY_HEADER]: options.idempotencyKey ?? randomUUID(),
      },
      body: raw,
      ...this.#transport,
      retryNetworkErrors: true,
      signal: options.signal,
      onRetry: this.#onRetry,
    });
    return response.body as TriggerResult;
  }

  /**
   * POST (or GET) /api/ping/{pingUrl}; `pingUrl` is the token or the full ping URL.
   * No body (undefined or `{}`) is an "up" ping signed over the empty string.
   */
  async ping(pingUrl: string, body?: PingInput, options: PingOptions = {}): Promise<PingResult> {
    const url = withDryRun(endpointUrl(pingUrl, "ping", this.baseUrl), options.dryRun);
    const method = options.method ?? "POST";
    const json = pingBody(body);
    if (method === "GET" && json !== undefined) throw new TypeError("A GET ping carries no body; use POST");
    const raw = json === undefined ? "" : JSON.stringify(json);
    const headers: Record<string, string> = {
      [SIGNATURE_HEADER]: sign(this.#requireSecret(), raw),
      [IDEMPOTENCY_HEADER]: options.idempotencyKey ?? randomUUID(),
    };
    if (raw !== "") headers["content-type"] = "application/json";
    const response = await sendRequest({
      method,
      url,
      headers,
      body: method === "POST" && raw !== "" ? raw : undefined,
      ...this.#transport,
      retryNetworkErrors: true,
      signal: options.signal,
      onRetry: this.#onRetry,
    });
    return response.body as PingResult;
  }

  /**
   * POST /api/alerts/resolve/{webhookUrl}: resolves the team's open alert with this group key
   * (same URL token as trigger, signed the same way).
   */
  async resolve(
    webhookUrl: string,
    groupKey: string,
    options: { idempotencyKey?: string; signal?: AbortSignal } = {},
  ): Promise<Record<string, unknown>> {
    const url = endpointUrl(webhookUrl, "resolve", this.baseUrl);
    const raw = JSON.stringify({ group_key: groupKey });
    const response = await sendRequest({
      method: "POST",
      url,
      headers: {
        "content-type": "application/json",
        [SIGNATURE_HEADER]: sign(this.#requireSecret(), raw),
        [IDEMPOTENCY_HEADER]: options.idempotencyKey ?? randomUUID(),
      },
      body: raw,
      ...this.#transport,
      retryNetworkErrors: true,
      signal: options.signal,
      onRetry: this.#onRetry,
    });
    return response.body as Record<string, unknown>;
  }

  #requireSecret(): string {
    if (this.#secret === undefined || this.#secret === "") {
      throw new TypeError("PulsegateClient: a secret is needed to sign (the team's webhook secret)");
    }
    return this.#secret;
  }
}
