import { randomUUID } from "node:crypto";
import { sign } from "@pulsegate/sdk";
import type { StackInfo } from "./stack.ts";

export type JsonResponse = { status: number; headers: Headers; body: Record<string, unknown> };

/** A monitor as the admin API returns it. */
export type MonitorJson = {
  id: string;
  teamId: string;
  pingUrl: string;
  name: string;
  status: "idle" | "up" | "down" | "paused";
  monitoringActive: boolean;
  intervalSeconds: number;
  graceSeconds: number;
  severity: string;
  reopenWindowSeconds: number;
  lastPingAt: string | null;
  lastPingStatus: "up" | "down" | null;
  lastReason: string | null;
};

/** Lowercase hex HMAC-SHA256, as a caller computes it (`openssl dgst -sha256 -hmac`): the SDK's. */
export { sign };

async function toJson(response: Response): Promise<JsonResponse> {
  const text = await response.text();
  let body: Record<string, unknown> = {};
  if (text) {
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      body = { raw: text };
    }
  }
  return { status: response.status, headers: response.headers, body };
}

/** `name` and a random suffix: team names are unique across the whole (shared) test stack. */
export const uniqueName = (name: string) => `${name} ${randomUUID().slice(0, 8)}`;

export class Client {
  readonly stack: StackInfo;

  constructor(stack: StackInfo) {
    this.stack = stack;
  }

  async admin(method: string, path: string, body?: unknown, token = this.stack.adminToken): Promise<JsonResponse> {
    const response = await fetch(`${this.stack.baseUrl}/admin/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return toJson(response);
  }

  /**
   * POSTs a named resource; without a name given, `fallback`, then `fallback 2`, `fallback 3`… until
   * one is free (names are unique within a team), so a test's second monitor needs no name of its own.
   */
  async createNamed(path: string, fallback: string, body: Record<string, unknown>): Promise<JsonResponse> {
    if (body.name !== undefined) return this.admin("POST", path, body);
    for (let n = 1; ; n++) {
      const response = await this.admin("POST", path, { ...body, name: n === 1 ? fallback : `${fallback} ${n}` });
      if (response.status !== 409 || response.body.code !== "name_taken") return response;
    }
  }

  /** A team named "Test team" and a random suffix, unless `body` names it: team names are unique. */
  async createTeam(body: Record<string, unknown> = {}): Promise<{ teamId: string; secret: string }> {
    const response = await this.admin("POST", "/teams", { name: uniqueName("Test team"), ...body });
    if (response.status !== 201) throw new Error(`create team: ${response.status} ${JSON.stringify(response.body)}`);
    const team = response.body.team as { id: string };
    return { teamId: team.id, secret: response.body.webhookSecret as string };
  }

  async createWebhook(teamId: string, body: Record<string, unknown> = {}): Promise<{ id: string; webhookUrl: string }> {
    const response = await this.createNamed(`/teams/${teamId}/webhooks`, "CI", body);
    if (response.status !== 201) throw new Error(`create webhook: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body.webhook as { id: string; webhookUrl: string };
  }

  /** A team with one webhook, ready for signed triggers. */
  async setup(team: Record<string, unknown> = {}, webhook: Record<string, unknown> = {}) {
    const created = await this.createTeam(team);
    const hook = await this.createWebhook(created.teamId, webhook);
    return { ...created, webhookId: hook.id, webhookUrl: hook.webhookUrl };
  }

  /**
   * POSTs `body` to the trigger endpoint, signed with `secret` unless a
   * signature is given (null sends none). Strings are sent byte for byte.
   */
  async trigger(
    webhookUrl: string,
    body: unknown,
    options: { secret?: string; signature?: string | null; contentType?: string | null } = {},
  ): Promise<JsonResponse> {
    const raw = typeof body === "string" ? body : JSON.stringify(body);
    const headers: Record<string, string> = {};
    if (options.contentType !== null) headers["content-type"] = options.contentType ?? "application/json";
    const signature =
      options.signature === undefined ? (options.secret ? sign(options.secret, raw) : undefined) : options.signature;
    if (signature !== null && signature !== undefined) headers["x-webhook-signature"] = signature;
    const response = await fetch(`${this.stack.baseUrl}/api/alerts/trigger/${webhookUrl}`, {
      method: "POST",
      headers,
      body: raw,
    });
    return toJson(response);
  }

  async createMonitor(teamId: string, body: Record<string, unknown> = {}): Promise<MonitorJson> {
    const response = await this.createNamed(`/teams/${teamId}/monitors`, "Nightly backup", body);
    if (response.status !== 201) throw new Error(`create monitor: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body.monitor as MonitorJson;
  }

  /** A team with one monitor, ready for signed pings. */
  async setupMonitor(team: Record<string, unknown> = {}, monitor: Record<string, unknown> = {}) {
    const created = await this.createTeam(team);
    const monitorJson = await this.createMonitor(created.teamId, monitor);
    return { ...created, monitorId: monitorJson.id, pingUrl: monitorJson.pingUrl, monitor: monitorJson };
  }

  async getMonitor(monitorId: string): Promise<MonitorJson> {
    const response = await this.admin("GET", `/monitors/${monitorId}`);
    if (response.status !== 200) throw new Error(`get monitor: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body.monitor as MonitorJson;
  }

  /**
   * Sends a ping. `body` undefined sends no body (signed as the empty string);
   * strings are sent byte for byte, anything else as JSON. Signed with
   * `secret` unless a signature is given (null sends none). `contentType`
   * defaults to application/json when there is a body (null sends none).
   */
  async ping(
    pingUrl: string,
    body?: unknown,
    options: {
      secret?: string;
      signature?: string | null;
      contentType?: string | null;
      method?: "GET" | "POST";
      query?: string;
    } = {},
  ): Promise<JsonResponse> {
    const method = options.method ?? "POST";
    const raw = body === undefined ? "" : typeof body === "string" ? body : JSON.stringify(body);
    const headers: Record<string, string> = {};
    if (raw !== "" && options.contentType !== null) headers["content-type"] = options.contentType ?? "application/json";
    if (raw === "" && typeof options.contentType === "string") headers["content-type"] = options.contentType;
    const signature =
      options.signature === undefined ? (options.secret ? sign(options.secret, raw) : undefined) : options.signature;
    if (signature !== null && signature !== undefined) headers["x-webhook-signature"] = signature;
    const query = options.query ? `?${options.query}` : "";
    const response = await fetch(`${this.stack.baseUrl}/api/ping/${pingUrl}${query}`, {
      method,
      headers,
      ...(method === "POST" && raw !== "" ? { body: raw } : {}),
    });
    return toJson(response);
  }
}
