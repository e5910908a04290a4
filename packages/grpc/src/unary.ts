import { type handleUnaryCall, type ServerUnaryCall, status } from "@grpc/grpc-js";
import type { Logger } from "@pulsegate/logger";
import { isTransientError, isUnstorableTextError } from "./classify-error.ts";
import { ServiceError } from "./service-error.ts";

/**
 * Adapts an async handler to grpc-js. ServiceErrors keep their status, code and
 * sentence; an unreachable database or peer is UNAVAILABLE (callers retry);
 * anything else is logged and answered INTERNAL without its message, so no
 * internal detail leaks to callers.
 */
export function unary<Req, Res>(
  log: Logger,
  handler: (request: Req, call: ServerUnaryCall<Req, Res>) => Promise<Res>,
): handleUnaryCall<Req, Res> {
  return (call, callback) => {
    handler(call.request, call).then(
      (response) => callback(null, response),
      (error: unknown) => {
        if (error instanceof ServiceError) {
          callback(error.toGrpc());
          return;
        }
        if (isUnstorableTextError(error)) {
          callback(
            new ServiceError(
              "INVALID_ARGUMENT",
              "invalid_request",
              "A text value contains a character that cannot be stored (U+0000).",
            ).toGrpc(),
          );
          return;
        }
        if (isTransientError(error)) {
          log.warn({ err: error, method: call.getPath() }, "dependency unavailable");
          callback(
            new ServiceError(
              "UNAVAILABLE",
              "dependency_unavailable",
              "A dependency is unavailable; retry shortly.",
            ).toGrpc(),
          );
          return;
        }
        log.error({ err: error, method: call.getPath() }, "unhandled error in gRPC handler");
        callback({ code: status.INTERNAL, details: "Internal error." });
      },
    );
  };
}
