import { type Context, context, ROOT_CONTEXT, type SpanContext, TraceFlags, trace } from "@opentelemetry/api";

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/**
 * The W3C `traceparent` of the span active in `ctx` (the current one by
 * default), or "" when there is none: what a row of work done later (an
 * outbox event) keeps so that the work continues the trace it came from.
 */
export function traceparentOf(ctx: Context = context.active()): string {
  const spanContext = trace.getSpanContext(ctx);
  if (!spanContext || !trace.isSpanContextValid(spanContext)) return "";
  const flags = (spanContext.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED ? "01" : "00";
  return `00-${spanContext.traceId}-${spanContext.spanId}-${flags}`;
}

/** The span context a `traceparent` names, or undefined when it is empty or malformed. */
export function spanContextOf(traceparent: string | null | undefined): SpanContext | undefined {
  const match = TRACEPARENT.exec(traceparent ?? "");
  if (!match) return undefined;
  const spanContext: SpanContext = {
    traceId: match[1] as string,
    spanId: match[2] as string,
    traceFlags: Number.parseInt(match[3] as string, 16) & TraceFlags.SAMPLED,
    isRemote: true,
  };
  return trace.isSpanContextValid(spanContext) ? spanContext : undefined;
}

/**
 * A context whose parent is the span a stored `traceparent` names; with none,
 * the root context (a new trace), never the caller's: background work must
 * not join whatever happened to be active when it was scheduled.
 */
export function contextFromTraceparent(traceparent: string | null | undefined): Context {
  const spanContext = spanContextOf(traceparent);
  return spanContext ? trace.setSpanContext(ROOT_CONTEXT, spanContext) : ROOT_CONTEXT;
}
