import { context, propagation } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from "@opentelemetry/core";

/**
 * The active span follows async work (AsyncLocalStorage), and W3C trace context and baggage
 * cross HTTP and gRPC hops. Registered whenever telemetry starts, with or without a tracer
 * provider: a caller's trace is carried on to the services even when this process exports none.
 */
export function registerContextPropagation(): void {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
}
