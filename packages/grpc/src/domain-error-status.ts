import { type ServiceError as GrpcServiceError, Metadata, status } from "@grpc/grpc-js";
import {
  ConflictError,
  type DomainError,
  type FieldProblem,
  ForbiddenError,
  InvalidError,
  NotFoundError,
  TooManyError,
  UnavailableError,
} from "@pulsegate/contract/errors";

export const CODE_METADATA_KEY = "pulsegate-code";
const DETAILS_METADATA_KEY = "pulsegate-details";
const RETRY_AFTER_METADATA_KEY = "pulsegate-retry-after";

/**
 * The one table from domain error to gRPC status, used by every service's edge (unary.ts) and
 * read back by every client (domainErrorFromGrpc). The code travels in `pulsegate-code`, field
 * problems in `pulsegate-details` (JSON), a retry-after in `pulsegate-retry-after`.
 */
const DOMAIN_STATUSES = [
  [NotFoundError, status.NOT_FOUND],
  [InvalidError, status.INVALID_ARGUMENT],
  [ConflictError, status.FAILED_PRECONDITION],
  [ForbiddenError, status.PERMISSION_DENIED],
  [UnavailableError, status.UNAVAILABLE],
  [TooManyError, status.RESOURCE_EXHAUSTED],
] as const;

export function grpcStatusOf(error: DomainError): status {
  for (const [kind, code] of DOMAIN_STATUSES) if (error instanceof kind) return code;
  return status.INTERNAL;
}

/** The error a grpc-js handler answers for a domain error. */
export function domainErrorToGrpc(error: DomainError): Partial<GrpcServiceError> {
  const metadata = new Metadata();
  metadata.set(CODE_METADATA_KEY, error.code);
  if (error instanceof InvalidError && error.details.length > 0) {
    metadata.set(DETAILS_METADATA_KEY, JSON.stringify(error.details));
  }
  if ((error instanceof UnavailableError || error instanceof TooManyError) && error.retryAfterSeconds !== undefined) {
    metadata.set(RETRY_AFTER_METADATA_KEY, String(error.retryAfterSeconds));
  }
  return { code: grpcStatusOf(error), details: error.message, metadata };
}

/** Reads a domain error back from a failed client call, or undefined for transport failures and bare statuses. */
export function domainErrorFromGrpc(error: unknown): DomainError | undefined {
  if (!isGrpcError(error) || !error.metadata) return undefined;
  const code = error.metadata.get(CODE_METADATA_KEY)[0];
  if (typeof code !== "string") return undefined;
  const message = error.details;
  switch (error.code) {
    case status.NOT_FOUND:
      return new NotFoundError(code, message);
    case status.INVALID_ARGUMENT: {
      const details = error.metadata.get(DETAILS_METADATA_KEY)[0];
      return new InvalidError(
        code,
        message,
        typeof details === "string" ? (JSON.parse(details) as FieldProblem[]) : [],
      );
    }
    case status.FAILED_PRECONDITION:
      return new ConflictError(code, message);
    case status.PERMISSION_DENIED:
      return new ForbiddenError(code, message);
    case status.UNAVAILABLE: {
      const retryAfter = Number(error.metadata.get(RETRY_AFTER_METADATA_KEY)[0]);
      return new UnavailableError(
        message,
        Number.isInteger(retryAfter) && retryAfter > 0 ? { retryAfterSeconds: retryAfter } : {},
      );
    }
    case status.RESOURCE_EXHAUSTED: {
      const retryAfter = Number(error.metadata.get(RETRY_AFTER_METADATA_KEY)[0]);
      return new TooManyError(code, message, Number.isInteger(retryAfter) && retryAfter > 0 ? retryAfter : 1);
    }
    default:
      return undefined;
  }
}

export function isGrpcError(error: unknown): error is GrpcServiceError {
  return error instanceof Error && typeof (error as Partial<GrpcServiceError>).code === "number";
}
