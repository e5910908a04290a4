import { constants, type PerformanceEntry, PerformanceObserver } from "node:perf_hooks";
import { getHeapSpaceStatistics } from "node:v8";
import { type Meter, metrics } from "@opentelemetry/api";
import { observableGaugeOf } from "./instruments.ts";

/**
 * The V8 heap in use just after the latest full (mark-compact) collection, outside the young
 * generation: the live heap, without the garbage that `v8js.memory.heap.used` also counts. A
 * heap V8 grows and keeps (resident memory rising, the used gauge swinging between collections)
 * leaves it flat; a leak makes it climb. Read when the collection's performance entry arrives,
 * before much is promoted again. Absent until the first full collection.
 */
export function observeLiveHeap(meter: Meter = metrics.getMeter("pulsegate-runtime")): PerformanceObserver {
  let liveBytes: number | undefined;
  const observer = new PerformanceObserver((list) => {
    const entries = list.getEntries() as (PerformanceEntry & { detail?: { kind?: number } })[];
    if (entries.some((entry) => entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR))
      liveBytes = oldGenerationInUse();
  });
  observer.observe({ entryTypes: ["gc"] });
  observableGaugeOf(meter, "pulsegate.heap.live").addCallback((result) => {
    if (liveBytes !== undefined) result.observe(liveBytes);
  });
  return observer;
}

function oldGenerationInUse(): number {
  return getHeapSpaceStatistics()
    .filter((space) => space.space_name !== "new_space" && space.space_name !== "new_large_object_space")
    .reduce((sum, space) => sum + space.space_used_size, 0);
}
