import type { IdempotencyKey } from "@pulsegate/db";
import type { PingStatus } from "@pulsegate/vocabulary";

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

export function pingItemFromJson(text: string): PingItem {
  const value = JSON.parse(text) as Omit<PingItem, "receivedAt"> & { receivedAt: string };
  return { ...value, receivedAt: new Date(value.receivedAt) };
}
