import { status } from "@grpc/grpc-js";
import { serviceErrorFromGrpc } from "@pulsegate/grpc";
import { errors, HttpError, UNAVAILABLE_RETRY_AFTER_SECONDS } from "./errors.ts";

type Mapping = { http: number; code: string; message: string };

/**
 * The one table from gRPC status to HTTP. `code` and `message` are used only
 * when the peer sent no ServiceError (a transport failure, or a bare status).
 * Statuses not listed are answered 500 "Internal error." without their text.
 */
const GRPC_TO_HTTP: ReadonlyMap<number, Mapping> = new Map([
  [status.INVALID_ARGUMENT, { http: 400, code: "invalid_request", message: "The request is invalid." }],
  [status.NOT_FOUND, { http: 404, code: "not_found", message: "Not found." }],
  [status.ALREADY_EXISTS, { http: 409, code: "already_exists", message: "It already exists." }],
  [status.FAILED_PRECONDITION, { http: 409, code: "conflict", message: "The resource does not allow this now." }],
  [status.PERMISSION_DENIED, { http: 403, code: "forbidden", message: "Not allowed." }],
  [status.RESOURCE_EXHAUSTED, { http: 429, code: "limit_exceeded", message: "A limit has been reached." }],
  [status.UNAVAILABLE, { http: 503, code: "service_unavailable", message: errors.serviceUnavailable().message }],
  [status.DEADLINE_EXCEEDED, { http: 503, code: "service_unavailable", message: errors.serviceUnavailable().message }],
]);

/** True for errors produced by a grpc-js client call. */
export function isGrpcError(error: unknown): error is Error & { code: number; details?: string } {
  return error instanceof Error && typeof (error as { code?: unknown }).code === "number" && "metadata" in error;
}

/** Translates a failed gRPC call into the HTTP error answered to the caller. */
export function httpErrorFromGrpc(error: Error & { code: number }): HttpError {
  const mapping = GRPC_TO_HTTP.get(error.code);
  if (!mapping) return errors.internal();
  const headers: Record<string, string> =
    mapping.http === 503 ? { "retry-after": String(UNAVAILABLE_RETRY_AFTER_SECONDS) } : {};
  const serviceError = serviceErrorFromGrpc(error);
  if (!serviceError) return new HttpError(mapping.http, mapping.code, mapping.message, { headers });
  return new HttpError(mapping.http, serviceError.code, serviceError.message, {
    headers,
    ...(serviceError.details.length > 0 ? { details: serviceError.details } : {}),
  });
}
