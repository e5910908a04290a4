import { status, type handleUnaryCall, type ServerUnaryCall } from "@grpc/grpc-js";
import type { Logger } from "@pulsegate/logger";
import { ServiceError } from "./service-error.ts";

/**
 * Adapts an async handler to grpc-js. ServiceErrors keep their status, code and
 * sentence; anything else is logged and answered INTERNAL without its message,
 * so no internal detail leaks to callers.
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
        log.error({ err: error, method: call.getPath() }, "unhandled error in gRPC handler");
        callback({ code: status.INTERNAL, details: "Internal error." });
      },
    );
  };
}
