import { shutdownTelemetry } from "@pulsegate/telemetry";
import type { Closer } from "./close-on-signals.ts";

/**
 * The last closer of every service: spans still buffered go to the collector. Short, and held
 * back from the steps before it (a tenth of the shutdown budget, at most 2 s): a collector that
 * answers takes milliseconds, and one that does not must not hold the exit.
 */
export function flushTelemetry(budgetMs: number): Closer {
  const flushMs = Math.min(2_000, Math.floor(budgetMs / 10));
  return { name: "telemetry", close: shutdownTelemetry, timeoutMs: flushMs, reserveMs: flushMs };
}
