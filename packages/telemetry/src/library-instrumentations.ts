import { FastifyOtelInstrumentation } from "@fastify/otel";
import type { Instrumentation } from "@opentelemetry/instrumentation";
import { GrpcInstrumentation } from "@opentelemetry/instrumentation-grpc";
import { HttpInstrumentation } from "@opentelemetry/instrumentation-http";
import { IORedisInstrumentation } from "@opentelemetry/instrumentation-ioredis";
import { PgInstrumentation } from "@opentelemetry/instrumentation-pg";
import { PinoInstrumentation } from "@opentelemetry/instrumentation-pino";
import { RuntimeNodeInstrumentation } from "@opentelemetry/instrumentation-runtime-node";
import { UndiciInstrumentation } from "@opentelemetry/instrumentation-undici";
import { isHealthMethod, isProbeRequest } from "./ignored-requests.ts";

/** The libraries a service's spans and runtime metrics come from, each set to record only what is worth its cost. */
export function libraryInstrumentations(): Instrumentation[] {
  return [
    new HttpInstrumentation({ ignoreIncomingRequestHook: isProbeRequest }),
    new GrpcInstrumentation({ ignoreGrpcMethods: [isHealthMethod] }),
    // Only inside a span (a request, a delivery, a sweep that found work): an idle poller's query makes no trace.
    new PgInstrumentation({ requireParentSpan: true }),
    // Keys and arguments name ping URLs and carry spooled pings: the command alone is recorded.
    new IORedisInstrumentation({
      requireParentSpan: true,
      dbStatementSerializer: (command, args) => `${command}${" ?".repeat(args.length)}`,
    }),
    // Notification deliveries (undici); their URLs are redacted to the origin (RedactingSpanProcessor).
    new UndiciInstrumentation({ requireParentforSpans: true }),
    // Event-loop delay and utilisation, heap, GC (metrics only).
    new RuntimeNodeInstrumentation(),
    // Puts trace_id and span_id on every log line. The lines themselves go to stdout only
    // (docs/operations.md): no logs SDK receives them, so none are handed to one.
    new PinoInstrumentation({ disableLogSending: true }),
    // The request span only: a child span per lifecycle hook and handler cost every request tens of
    // microseconds and told an SRE nothing the request span does not (bench: docs/performance.md).
    new FastifyOtelInstrumentation({
      registerOnInitialization: true,
      instrumentHooks: false,
      instrumentHandler: false,
    }),
  ];
}
