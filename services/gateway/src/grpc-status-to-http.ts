import { status } from "@grpc/grpc-js";
import { InvalidError, TooManyError, UnavailableError } from "@pulsegate/contract/errors";
import { domainErrorFromGrpc } from "@pulsegate/grpc";
import { ERROR_CATALOGUE, type ErrorCode, isErrorCode } from "./error-catalogue.ts";
import { errors, HttpError } from "./errors.ts";

/**
 * The one table from gRPC status to the catalogue's generic code for it (whose entry gives the
 * HTTP status). It answers a peer's failure that carries no domain error (a transport failure,
 * a deadline, a bare status), and a domain error whose code the catalogue does not list.
 * Statuses not listed are answered 500 "Internal error." without their text — RESOURCE_EXHAUSTED
 * included, unless it carries a TooManyError whose code the catalogue answers 429 (grpc-js uses the
 * status for its own limits, a message too large, which are no caller's to retry).
 */
export const GRPC_STATUS_CODES: ReadonlyMap<number, ErrorCode> = new Map([
  [status.INVALID_ARGUMENT, "invalid_request"],
  [status.NOT_FOUND, "not_found"],
  [status.ALREADY_EXISTS, "conflict"],
  [status.FAILED_PRECONDITION, "conflict"],
  [status.PERMISSION_DENIED, "forbidden"],
  [status.UNAVAILABLE, "service_unavailable"],
  [status.DEADLINE_EXCEEDED, "service_unavailable"],
]);

/** True for errors produced by a grpc-js client call. */
export function isGrpcError(error: unknown): error is Error & { code: number; details?: string } {
  return error instanceof Error && typeof (error as { code?: unknown }).code === "number" && "metadata" in error;
}

/** Translates a failed gRPC call into the HTTP error answered to the caller. */
export function httpErrorFromGrpc(error: Error & { code: number }): HttpError {
  if (error.code === status.RESOURCE_EXHAUSTED) {
    const domain = domainErrorFromGrpc(error);
    if (domain instanceof TooManyError && isErrorCode(domain.code) && ERROR_CATALOGUE[domain.code].status === 429) {
      return new HttpError(domain.code, domain.message, {
        headers: { "retry-after": String(domain.retryAfterSeconds) },
      });
    }
    return errors.internal();
  }
  const generic = GRPC_STATUS_CODES.get(error.code);
  if (!generic) return errors.internal();
  const domain = domainErrorFromGrpc(error);
  if (generic === "service_unavailable") {
    return errors.serviceUnavailable(
      domain?.message ?? ERROR_CATALOGUE.service_unavailable.sentence,
      domain instanceof UnavailableError ? domain.retryAfterSeconds : undefined,
    );
  }
  if (!domain) return new HttpError(generic);
  const code =
    isErrorCode(domain.code) && ERROR_CATALOGUE[domain.code].status === ERROR_CATALOGUE[generic].status
      ? domain.code
      : generic;
  const details = domain instanceof InvalidError && domain.details.length > 0 ? domain.details : undefined;
  return new HttpError(code, domain.message, details ? { details } : {});
}
