import { context, type Link, ROOT_CONTEXT, type Span, SpanStatusCode, trace } from "@opentelemetry/api";

const tracer = trace.getTracer("pulsegate-gateway");

/**
 * Tracing for a coalesced call. One call carries the items of many requests,
 * so it cannot sit in any one request's trace (it used to join whichever
 * request happened to flush it, and the others' traces lacked the hop).
 * Instead the call gets a span of its own, `batch <name>`, linked to every
 * request's span, and each request's span links back to it: from any request
 * an SRE follows the link to the call, the service and its queries, and from
 * the call to every request it served. Links cost no span per item. The
 * batch is sampled when any of its requests is (BatchAwareSampler).
 */
export type BatchTrace = {
  /** Runs the call in the batch span's context (or the root context: never a request's). */
  run: <T>(send: () => Promise<T>) => Promise<T>;
  end: (error?: unknown) => void;
};

/** The span of the request making this call, if it is traced (taken when the item is queued). */
export function requestSpan(): Span | undefined {
  const span = trace.getActiveSpan();
  return span && trace.isSpanContextValid(span.spanContext()) ? span : undefined;
}

export function startBatchTrace(name: string, spans: (Span | undefined)[]): BatchTrace {
  const links: Link[] = [];
  for (const span of spans) if (span) links.push({ context: span.spanContext() });
  if (links.length === 0) {
    return { run: (send) => context.with(ROOT_CONTEXT, send), end: () => undefined };
  }
  const batch = tracer.startSpan(`batch ${name}`, {
    root: true,
    links,
    attributes: { "pulsegate.batch.size": spans.length, "pulsegate.batch.rpc": name },
  });
  const batchLink: Link = { context: batch.spanContext(), attributes: { "pulsegate.batch.size": spans.length } };
  for (const span of spans) span?.addLink(batchLink);
  return {
    run: (send) => context.with(trace.setSpan(ROOT_CONTEXT, batch), send),
    end: (error) => {
      if (error !== undefined) {
        batch.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : "Error" });
      }
      batch.end();
    },
  };
}
