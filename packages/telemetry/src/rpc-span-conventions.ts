import { SpanKind } from "@opentelemetry/api";

type MutableSpan = {
  name: string;
  kind: SpanKind;
  attributes: Record<string, unknown>;
  instrumentationScope: { name: string };
  setAttribute: (key: string, value: string) => unknown;
  updateName: (name: string) => unknown;
};

const GRPC_SCOPE = "@opentelemetry/instrumentation-grpc";

/** grpc.status names by code (google.rpc.Code). */
export const GRPC_STATUS_NAMES = [
  "OK",
  "CANCELLED",
  "UNKNOWN",
  "INVALID_ARGUMENT",
  "DEADLINE_EXCEEDED",
  "NOT_FOUND",
  "ALREADY_EXISTS",
  "PERMISSION_DENIED",
  "RESOURCE_EXHAUSTED",
  "FAILED_PRECONDITION",
  "ABORTED",
  "OUT_OF_RANGE",
  "UNIMPLEMENTED",
  "INTERNAL",
  "UNAVAILABLE",
  "DATA_LOSS",
  "UNAUTHENTICATED",
] as const;

/** Codes a server reports as its own error (semantic conventions for gRPC); a client counts every non-OK code. */
const SERVER_ERRORS = new Set([2, 4, 12, 13, 14, 15]);

export const grpcStatusName = (code: number): string => GRPC_STATUS_NAMES[code] ?? String(code);

/**
 * Rewrites a span of @opentelemetry/instrumentation-grpc, which emits the RPC
 * conventions of semconv 1.37 and offers no OTEL_SEMCONV_STABILITY_OPT_IN,
 * into the current ones: span name and `rpc.method` are the fully-qualified
 * method (`alerts.v1.AlertsService/TriggerAlert`), `rpc.system.name` is
 * `grpc`, `rpc.response.status_code` the status name (`OK`, `UNAVAILABLE`),
 * `error.type` that name when the call failed; `rpc.system`, `rpc.service`
 * and `rpc.grpc.status_code` go. Called while the span ends (still writable).
 */
export function applyRpcConventions(span: MutableSpan): void {
  if (span.instrumentationScope.name !== GRPC_SCOPE) return;
  const attributes = span.attributes;
  const service = attributes["rpc.service"];
  const method = attributes["rpc.method"];
  if (typeof service === "string" && typeof method === "string" && service !== "") {
    const qualified = method.includes("/") ? method : `${service}/${method}`;
    span.updateName(qualified);
    span.setAttribute("rpc.method", qualified);
  }
  span.setAttribute("rpc.system.name", "grpc");
  const code = attributes["rpc.grpc.status_code"];
  if (typeof code === "number") {
    const name = grpcStatusName(code);
    span.setAttribute("rpc.response.status_code", name);
    const failed = span.kind === SpanKind.SERVER ? SERVER_ERRORS.has(code) : code !== 0;
    if (failed) span.setAttribute("error.type", name);
  }
  delete attributes["rpc.system"];
  delete attributes["rpc.service"];
  delete attributes["rpc.grpc.status_code"];
}
