import { randomUUID } from "node:crypto";
import type { PingItem } from "../pings/ping-item.ts";

/** A live up ping of `monitor` received now, no quota, for tests; `overrides` win. */
export const aPingItem = (monitor: { id: string; teamId: string }, overrides: Partial<PingItem> = {}): PingItem => ({
  pingId: randomUUID(),
  monitorId: monitor.id,
  teamId: monitor.teamId,
  status: "up",
  reason: null,
  groupKey: null,
  metadataJson: null,
  method: "POST",
  receivedAt: new Date(),
  heartbeatQuotaMonthly: 0,
  alertQuotaMonthly: 0,
  ...overrides,
});
