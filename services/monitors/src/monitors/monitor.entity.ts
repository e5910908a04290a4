import { defineEntity, type InferEntity, p } from "@pulsegate/db";
import type { Severity } from "../severity.ts";

/**
 * The monitors table as MikroORM knows it. Reads and writes go through raw,
 * schema-qualified SQL (monitor-row.ts), because state changes are
 * single-statement updates under row locks; the entity documents the shape.
 */
export const MonitorSchema = defineEntity({
  name: "Monitor",
  tableName: "monitors",
  properties: {
    id: p.string().primary(),
    teamId: p.string(),
    pingUrl: p.string().unique(),
    name: p.string().length(200),
    status: p.string().$type<MonitorStatus>(),
    monitoringActive: p.boolean(),
    intervalSeconds: p.integer(),
    graceSeconds: p.integer(),
    severity: p.string().$type<Severity>(),
    reopenWindowSeconds: p.integer(),
    lastPingAt: p.datetime().nullable(),
    lastPingStatus: p.string().$type<PingStatus>().nullable(),
    lastReason: p.string().nullable(),
    nextDueAt: p.datetime().nullable(),
    incidentOpen: p.boolean(),
    alertQuotaMonthly: p.integer(),
    schedule: p.string().nullable(),
    timezone: p.string().nullable(),
    maxDurationSeconds: p.integer().nullable(),
    runStartedAt: p.datetime().nullable(),
    lastDurationMs: p.bigint().nullable(),
    badgeToken: p.string().unique(),
    repeatIntervalSeconds: p.integer().nullable(),
    requireTimestamp: p.boolean(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});

export type MonitorEntity = InferEntity<typeof MonitorSchema>;
export type MonitorStatus = "idle" | "up" | "down" | "paused";
/** "start": a run began (start/finish signals); the next up or down ping closes it. */
export type PingStatus = "up" | "down" | "start";
