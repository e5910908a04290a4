import { type handleUnaryCall, type ServerUnaryCall, status } from "@grpc/grpc-js";
import { DomainError, InvalidError, UnavailableError } from "@pulsegate/contract/errors";
import type { Logger } from "@pulsegate/runtime/logger";
import { isTransientError } from "@pulsegate/runtime/transient-error";
import { isUnstorableTextError } from "./classify-error.ts";
import { domainErrorToGrpc, grpcStatusOf } from "./domain-error-status.ts";
import { rpcBatchSize, rpcServerDuration } from "./rpc-metrics.ts";

const STATUS_NAMES = Object.fromEntries(Object.entries(status).map(([name, code]) => [code, name])) as Record<
  number,
  string
>;

/** A caller's mistake or a state of the data: worth a line, not an alarm. Anything else is the service's own trouble. */
const CALLER_STATUSES = new Set<number>([
  status.INVALID_ARGUMENT,
  status.NOT_FOUND,
  status.ALREADY_EXISTS,
  status.FAILED_PRECONDITION,
  status.PERMISSION_DENIED,
  status.RESOURCE_EXHAUSTED,
  status.UNAUTHENTICATED,
  status.OUT_OF_RANGE,
  status.CANCELLED,
]);

/**
 * Adapts an async handler to grpc-js: the service's one gRPC error edge. Domain
 * errors keep their code and sentence under the status domain-error-status.ts
 * gives them; an unreachable database or peer is UNAVAILABLE (callers retry);
 * anything else is answered INTERNAL without its message, so no internal
 * detail leaks to callers. Every call is timed by method and status
 * (rpc.server.call.duration), a call with repeated `items` counts them, and
 * every failed call is logged once: `rpc failed` with the method, the gRPC
 * status name (`grpcCode`) and our code, at info for a caller's error, at warn
 * for UNAVAILABLE, at error (with the error) for INTERNAL.
 */
export function unary<Req, Res>(
  log: Logger,
  handler: (request: Req, call: ServerUnaryCall<Req, Res>) => Promise<Res>,
): handleUnaryCall<Req, Res> {
  return (call, callback) => {
    const started = performance.now();
    const method = call.getPath().slice(1);
    const items = (call.request as { items?: unknown } | null)?.items;
    if (Array.isArray(items)) rpcBatchSize.record(items.length, { "rpc.method": method });
    const finish = (code: number) => {
      const seconds = (performance.now() - started) / 1000;
      rpcServerDuration.record(seconds, { "rpc.method": method, "rpc.response.status_code": STATUS_NAMES[code] ?? "" });
      return Math.round(seconds * 1000 * 10) / 10;
    };
    handler(call.request, call).then(
      (response) => {
        finish(status.OK);
        callback(null, response);
      },
      (error: unknown) => {
        let answer: DomainError | undefined;
        if (error instanceof DomainError) answer = error;
        else if (isUnstorableTextError(error)) {
          answer = new InvalidError(
            "invalid_request",
            "A text value contains a character that cannot be stored (U+0000).",
          );
        } else if (isTransientError(error)) {
          answer = new UnavailableError("A dependency is unavailable; retry shortly.");
        }
        const code = answer ? grpcStatusOf(answer) : status.INTERNAL;
        const fields = {
          method,
          grpcCode: STATUS_NAMES[code],
          code: answer?.code ?? "internal",
          durationMs: finish(code),
        };
        if (!answer) log.error({ ...fields, err: error }, "rpc failed");
        else if (CALLER_STATUSES.has(code)) log.info(fields, "rpc failed");
        else log.warn({ ...fields, err: error }, "rpc failed");
        callback(answer ? domainErrorToGrpc(answer) : { code: status.INTERNAL, details: "Internal error." });
      },
    );
  };
}
