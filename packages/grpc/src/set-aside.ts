import { metrics } from "@opentelemetry/api";
import type { Logger } from "@pulsegate/runtime/logger";
import { counterOf } from "@pulsegate/telemetry/instruments";

/** Our queues that set entries aside (docs/operations.md, "What our queues set aside"). */
export type QueueName = "audit" | "outbox_expansion" | "deliveries" | "reminders" | "incident_actions" | "ping_spool";

const setAsideEntries = counterOf(metrics.getMeter("pulsegate-queues"), "pulsegate.queue.set_aside");

/**
 * An entry a queue set aside instead of retrying it ahead of the rest: counted
 * (pulsegate_queue_set_aside_total{queue}) and logged once, at warn, with the
 * queue, the entry's ids and the reason (refusalOf: codes, never content).
 * `entry` must hold ids only: never a secret, a URL or a body.
 */
export function reportSetAside(
  log: Pick<Logger, "warn">,
  queue: QueueName,
  entry: Record<string, string | number | null>,
  reason: string,
): void {
  setAsideEntries.add(1, { queue });
  log.warn({ queue, ...entry, reason }, "queue entry set aside");
}
