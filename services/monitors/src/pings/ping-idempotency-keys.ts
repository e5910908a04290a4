import { IDEMPOTENCY_LIMITS } from "@pulsegate/contract/limits";
import type { MonitorStatus } from "@pulsegate/contract/vocabulary";
import { IdempotencyKeys } from "@pulsegate/db";
import type { MonitorView } from "../monitors/monitor-row.ts";

/** What a recorded ping answered (its monitor after it): given again for a repeat of its key. */
export type PingAnswer = Pick<MonitorView, "id" | "teamId" | "name" | "monitoringActive"> & { status: MonitorStatus };

/** The owner of monitors.idempotency_keys. */
export const pingIdempotencyKeys = new IdempotencyKeys<PingAnswer>("monitors", IDEMPOTENCY_LIMITS.keptHours);
