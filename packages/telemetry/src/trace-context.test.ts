import { context, ROOT_CONTEXT, TraceFlags, trace } from "@opentelemetry/api";
import { describe, expect, it } from "vitest";
import { contextFromTraceparent, spanContextOf, traceparentOf } from "./trace-context.ts";

const sampled = {
  traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
  spanId: "00f067aa0ba902b7",
  traceFlags: TraceFlags.SAMPLED,
};

describe("traceparent", () => {
  it("writes the active span's context as W3C traceparent, and reads it back", () => {
    const ctx = trace.setSpanContext(ROOT_CONTEXT, sampled);
    const text = traceparentOf(ctx);
    expect(text).toBe("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
    expect(spanContextOf(text)).toEqual({ ...sampled, isRemote: true });
    expect(trace.getSpanContext(contextFromTraceparent(text))?.spanId).toBe(sampled.spanId);
    expect(traceparentOf(trace.setSpanContext(ROOT_CONTEXT, { ...sampled, traceFlags: TraceFlags.NONE }))).toMatch(
      /-00$/,
    );
  });

  it("is empty without a span, and a malformed or absent one starts a new trace", () => {
    expect(context.with(ROOT_CONTEXT, () => traceparentOf())).toBe("");
    for (const bad of [null, undefined, "", "00-xyz", `00-${"0".repeat(32)}-${"0".repeat(16)}-01`]) {
      expect(spanContextOf(bad)).toBeUndefined();
      expect(contextFromTraceparent(bad)).toBe(ROOT_CONTEXT);
    }
  });
});
