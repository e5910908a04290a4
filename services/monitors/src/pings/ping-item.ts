import type { PingStatus } from "@pulsegate/contract/vocabulary";
import type { IdempotencyKey } from "@pulsegate/db";

/** One ping as received, with its idempotency key. Spooled as JSON exactly like this. */
export type PingItem = {
  /** UUID generated at receipt; UNIQUE in monitors.pings, so a ping is applied once. */
  pingId: string;
  monitorId: string;
  teamId: string;
  status: PingStatus;
  reason: string | null;
  groupKey: string | null;
  metadataJson: string | null;
  method: string;
  receivedAt: Date;
  heartbeatQuotaMonthly: number;
  alertQuotaMonthly: number;
  /** The request's Idempotency-Key (ping-idempotency-keys.ts); absent or null: none. */
  idempotency?: IdempotencyKey | null;
};

export function pingItemToJson(item: PingItem): string {
  return JSON.stringify({ ...item, receivedAt: item.receivedAt.toISOString() });
}

/**
 * The ping spooled as `text`, or null when the text is no ping (not JSON, or without the ids a
 * ping is found by); what the database may still refuse (a malformed key) is its to say.
 */
export function pingItemFromJson(text: string): PingItem | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const item = value as (Omit<PingItem, "receivedAt"> & { receivedAt: unknown }) | null;
  if (typeof item !== "object" || item === null) return null;
  if (![item.pingId, item.monitorId, item.teamId, item.receivedAt].every((field) => typeof field === "string")) {
    return null;
  }
  return { ...item, receivedAt: new Date(item.receivedAt as string) };
}
