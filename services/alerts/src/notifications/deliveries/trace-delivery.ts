import { type Context, contextFromTraceparent, inBackgroundSpan, spanContextOf } from "@pulsegate/telemetry";

type Traced = { id: string; eventType: string; kind: string; attempt: number; traceparent?: string | null };

/**
 * Runs a delivery attempt in a span that continues the trace of what wrote
 * its outbox event (the trigger's request, the resolve, the incident): the
 * signing RPC, the POST (undici, URL redacted to its origin) and the
 * attempt's log lines (trace_id) all belong to that trace. An event without
 * one (written before, or by untraced work) starts a trace of its own.
 * Sampling follows the stored flags, so an unsampled request's deliveries
 * are not recorded either.
 */
export function traceDelivery<T>(delivery: Traced, attempt: () => Promise<T>): Promise<T> {
  const parent: Context | undefined = spanContextOf(delivery.traceparent)
    ? contextFromTraceparent(delivery.traceparent)
    : undefined;
  return inBackgroundSpan(
    `deliver ${delivery.eventType}`,
    {
      parent,
      attributes: {
        "pulsegate.delivery.id": delivery.id,
        "pulsegate.delivery.attempt": delivery.attempt,
        "pulsegate.channel.kind": delivery.kind,
      },
    },
    () => attempt(),
  );
}
