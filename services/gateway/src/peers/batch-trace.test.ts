import { context, type Span, trace } from "@opentelemetry/api";
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-node";
import { BatchAwareSampler, samplerFromEnv } from "@pulsegate/telemetry";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { batchPerTurn } from "./batch-per-turn.ts";

// A real SDK tracer provider, registered globally for this file (vitest isolates files).
const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({
  sampler: new BatchAwareSampler(
    samplerFromEnv({ OTEL_TRACES_SAMPLER: "parentbased_traceidratio", OTEL_TRACES_SAMPLER_ARG: "0" }),
  ),
  spanProcessors: [new SimpleSpanProcessor(exporter)],
  spanLimits: { linkCountLimit: 512 },
});
beforeAll(() => {
  provider.register();
});

afterAll(() => {
  trace.disable();
  context.disable();
});

const tracer = () => trace.getTracer("test");

/** Runs `call` as a request would: inside its own (sampled) server span. */
async function asRequest<T>(call: () => Promise<T>): Promise<{ span: Span; result: T }> {
  const span = tracer().startSpan("request", { root: true }, undefined);
  // The ratio is 0: make this request's span sampled as a caller's sampled trace would.
  const sampled = trace.wrapSpanContext({ ...span.spanContext(), traceFlags: 1 });
  const parent = trace.setSpan(context.active(), sampled);
  const child = tracer().startSpan("handler", {}, parent);
  const result = await context.with(trace.setSpan(parent, child), call);
  child.end();
  return { span: child, result };
}

describe("batchPerTurn tracing", () => {
  it("runs a batch in a span of its own, linked to every request, each request linked back", async () => {
    exporter.reset();
    let activeInSend: string | undefined;
    const double = batchPerTurn(
      async (items: number[]) => {
        activeInSend = trace.getActiveSpan()?.spanContext().spanId;
        return items.map((item) => item * 2);
      },
      { name: "TriggerAlert" },
    );
    const requests = await Promise.all([1, 2, 3].map((n) => asRequest(() => double(n))));
    expect(requests.map((r) => r.result)).toEqual([2, 4, 6]);

    const spans = exporter.getFinishedSpans();
    const batches = spans.filter((span) => span.name === "batch TriggerAlert");
    expect(batches, "sampled because its requests are, though the ratio is 0").toHaveLength(1);
    const [batch] = batches;
    expect(batch?.parentSpanContext).toBeUndefined();
    expect(batch?.attributes["pulsegate.batch.size"]).toBe(3);
    // The call ran in the batch's context, not in the request that flushed it.
    expect(activeInSend).toBe(batch?.spanContext().spanId);
    const linked = new Set(batch?.links.map((link) => link.context.spanId));
    for (const { span } of requests) {
      expect(linked.has(span.spanContext().spanId)).toBe(true);
      const finished = spans.find((s) => s.spanContext().spanId === span.spanContext().spanId);
      expect(finished?.links.map((link) => link.context.spanId)).toEqual([batch?.spanContext().spanId]);
    }
  });

  it("makes no batch span for calls outside any request, and still runs them outside a request's context", async () => {
    exporter.reset();
    let active: Span | undefined;
    const same = batchPerTurn(async (items: number[]) => {
      active = trace.getActiveSpan();
      return items;
    });
    expect(await same(1)).toBe(1);
    expect(active).toBeUndefined();
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});
