import {
  type Attributes,
  type Context,
  context,
  ROOT_CONTEXT,
  type Span,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";

const tracer = trace.getTracer("pulsegate");

/**
 * Runs background work that has found something to do (a delivery, a sweep
 * that took monitors down, a spool drain) in a span of its own: a new trace,
 * or the one `parent` continues. Its queries, RPCs and log lines (trace_id,
 * span_id) belong to it. Pollers call it only once they have work, so an idle
 * poller makes no trace (pg and Redis spans need a parent: start-telemetry.ts).
 * `startTime` (ms since the epoch) lets a span cover the query that found the work.
 */
export async function inBackgroundSpan<T>(
  name: string,
  options: { attributes?: Attributes; parent?: Context; startTime?: number },
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const span = tracer.startSpan(
    name,
    { attributes: options.attributes, startTime: options.startTime, root: options.parent === undefined },
    options.parent ?? ROOT_CONTEXT,
  );
  try {
    return await context.with(trace.setSpan(options.parent ?? ROOT_CONTEXT, span), () => work(span));
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : "Error" });
    throw error;
  } finally {
    span.end();
  }
}
