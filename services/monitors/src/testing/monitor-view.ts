import { randomUUID } from "node:crypto";
import type { MonitorView } from "../monitors/monitor-row.ts";

/** A monitor as the service last saw it, for tests: up, active, never pinged, random ids; `overrides` win. */
export const aMonitorView = (overrides: Partial<MonitorView> = {}): MonitorView =>
  ({
    id: randomUUID(),
    teamId: randomUUID(),
    status: "up",
    monitoringActive: true,
    lastPingAt: null,
    lastPingStatus: null,
    lastReason: null,
    ...overrides,
  }) as MonitorView;
