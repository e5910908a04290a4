import { ROOT_CONTEXT, SpanKind, TraceFlags, trace } from "@opentelemetry/api";
import { type Sampler, SamplingDecision } from "@opentelemetry/sdk-trace-node";
import { describe, expect, it } from "vitest";
import { BatchAwareSampler, samplerFromEnv } from "./batch-aware-sampler.ts";

const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
const link = (flags: number) => ({
  context: { traceId: "0af7651916cd43dd8448eb211c80319c", spanId: "b7ad6b7169203331", traceFlags: flags },
});
const decide = (sampler: Sampler, links: ReturnType<typeof link>[], parentFlags?: number) => {
  const ctx =
    parentFlags === undefined
      ? ROOT_CONTEXT
      : trace.setSpanContext(ROOT_CONTEXT, { traceId, spanId: "00f067aa0ba902b7", traceFlags: parentFlags });
  return sampler.shouldSample(ctx, traceId, "batch TriggerAlert", SpanKind.INTERNAL, {}, links).decision;
};

describe("BatchAwareSampler", () => {
  const never = new BatchAwareSampler(
    samplerFromEnv({ OTEL_TRACES_SAMPLER: "parentbased_traceidratio", OTEL_TRACES_SAMPLER_ARG: "0" }),
  );

  it("samples a batch when any request it carries is sampled, whatever the ratio", () => {
    expect(decide(never, [link(TraceFlags.NONE), link(TraceFlags.SAMPLED)])).toBe(SamplingDecision.RECORD_AND_SAMPLED);
  });

  it("records no batch of unsampled requests, even where the ratio would keep a new trace", () => {
    const always = new BatchAwareSampler(samplerFromEnv({ OTEL_TRACES_SAMPLER: "always_on" }));
    expect(decide(always, [link(TraceFlags.NONE), link(TraceFlags.NONE)])).toBe(SamplingDecision.NOT_RECORD);
  });

  it("leaves spans with a parent, and roots without links, to the configured sampler", () => {
    expect(decide(never, [], TraceFlags.SAMPLED)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(decide(never, [link(TraceFlags.SAMPLED)], TraceFlags.NONE)).toBe(SamplingDecision.NOT_RECORD);
    expect(decide(never, [])).toBe(SamplingDecision.NOT_RECORD);
  });
});

describe("samplerFromEnv", () => {
  it("reads the standard OTEL_TRACES_SAMPLER values, parentbased_always_on by default", () => {
    expect(samplerFromEnv({}).toString()).toMatch(/ParentBased.*AlwaysOn/);
    expect(
      samplerFromEnv({ OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "0.25" }).toString(),
    ).toContain("0.25");
    expect(samplerFromEnv({ OTEL_TRACES_SAMPLER: "always_off" }).toString()).toMatch(/AlwaysOff/);
  });

  it("stops the start on an unknown sampler, naming the variable", () => {
    expect(() => samplerFromEnv({ OTEL_TRACES_SAMPLER: "sometimes" })).toThrow(
      /OTEL_TRACES_SAMPLER: unknown sampler "sometimes"/,
    );
  });
});
