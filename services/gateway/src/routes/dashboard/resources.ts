import type { channelJson, deliveryJson, policyJson } from "../admin/channel-json.ts";
import type { silenceJson } from "../admin/silence-routes.ts";
import type { alertJson, occurrenceJson, teamJson, webhookJson } from "../admin/to-json.ts";

/** The admin API's JSON shapes, taken from the mappers that write them. */
export type Team = ReturnType<typeof teamJson>;
export type Webhook = ReturnType<typeof webhookJson>;
export type Alert = ReturnType<typeof alertJson>;
export type Occurrence = ReturnType<typeof occurrenceJson>;
/**
 * Monitors and pings as read here: the fields the pages use, the newer ones optional (scheduled
 * monitors and start pings add them), so the pages take either shape of the answer.
 */
export type Monitor = {
  id: string;
  teamId: string;
  pingUrl: string;
  pingEndpoint: string;
  name: string;
  status: string;
  monitoringActive: boolean;
  intervalSeconds: number | null;
  schedule?: string | null;
  timezone?: string | null;
  graceSeconds: number;
  severity: string;
  lastPingAt: string | null;
  lastReason: string | null;
  /** When the service computes it; otherwise the page does (last ping + interval). */
  nextDueAt?: string | null;
  /** How pings are signed: "pulsegate" or "standard-webhooks" (absent: pulsegate). */
  signatureScheme?: string;
  reopenWindowSeconds?: number;
  maxDurationSeconds?: number | null;
  repeatIntervalSeconds?: number | null;
  requireTimestamp?: boolean;
  /** When the open run started (a start signal not closed yet). */
  runStartedAt?: string | null;
  /** How long the last finished run took. */
  lastDurationMs?: number | null;
  /** The public status badge (an SVG image). */
  badgeUrl?: string;
};
export type Ping = {
  id: string;
  status: string | null;
  reason: string | null;
  metadata: unknown;
  receivedAt: string | null;
};
export type Channel = ReturnType<typeof channelJson>;
export type Delivery = ReturnType<typeof deliveryJson>;
export type Policy = ReturnType<typeof policyJson>;
export type Silence = ReturnType<typeof silenceJson>;
