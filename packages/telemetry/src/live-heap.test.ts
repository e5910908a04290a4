import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { PrometheusExporter, PrometheusSerializer } from "@opentelemetry/exporter-prometheus";
import { MeterProvider } from "@opentelemetry/sdk-metrics";
import { afterAll, describe, expect, it } from "vitest";
import { observeLiveHeap } from "./live-heap.ts";
import { metricViews } from "./metric-views.ts";

setFlagsFromString("--expose-gc");
const fullCollection = runInNewContext("gc") as () => void;

const reader = new PrometheusExporter({ preventServerStart: true });
const provider = new MeterProvider({ views: metricViews(), readers: [reader] });
const observer = observeLiveHeap(provider.getMeter("live-heap-test"));
afterAll(async () => {
  observer.disconnect();
  await provider.shutdown();
});

async function liveHeapMiB(): Promise<number | undefined> {
  const { resourceMetrics } = await reader.collect();
  const line = /^pulsegate_heap_live_bytes(?:\{[^}]*\})? (\S+)/m.exec(
    new PrometheusSerializer().serialize(resourceMetrics),
  );
  return line ? Number(line[1]) / 2 ** 20 : undefined;
}

/** A full collection, then a turn of the event loop for its performance entry to arrive. */
async function collect(): Promise<void> {
  fullCollection();
  await new Promise((resolve) => setTimeout(resolve, 50));
}

describe("the live heap gauge", () => {
  it("follows what is retained across full collections, not the garbage between them", async () => {
    await collect();
    const before = (await liveHeapMiB()) as number;
    expect(before).toBeGreaterThan(1);

    let retained: string[] | undefined = Array.from(
      { length: 400_000 },
      (_, index) => `retained ${index} ${Math.random()}`,
    );
    for (let round = 0; round < 20; round++) Array.from({ length: 50_000 }, (_, index) => ({ garbage: index }));
    await collect();
    const holding = (await liveHeapMiB()) as number;
    expect(retained.length).toBe(400_000);
    // 400,000 strings of ~40 characters, in the old generation after a full collection: at least ~15 MiB.
    expect(holding - before).toBeGreaterThan(15);

    retained = undefined;
    await collect();
    const released = (await liveHeapMiB()) as number;
    expect(holding - released).toBeGreaterThan(15);
  });
});
