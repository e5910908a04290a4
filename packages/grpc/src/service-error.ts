import { type ServiceError as GrpcServiceError, Metadata, status } from "@grpc/grpc-js";

export const CODE_METADATA_KEY = "pulsegate-code";
const DETAILS_METADATA_KEY = "pulsegate-details";

/** The gRPC statuses a domain error may carry; the gateway maps each to one HTTP status. */
export type ServiceErrorKind =
  | "INVALID_ARGUMENT"
  | "NOT_FOUND"
  | "ALREADY_EXISTS"
  | "FAILED_PRECONDITION"
  | "PERMISSION_DENIED"
  | "RESOURCE_EXHAUSTED"
  | "UNAVAILABLE";

export type ErrorDetail = { field: string; message: string };

/**
 * An expected failure with a machine code (snake_case), a sentence for people
 * and a gRPC status. Anything else that escapes a handler is INTERNAL.
 */
export class ServiceError extends Error {
  override name = "ServiceError";
  readonly kind: ServiceErrorKind;
  readonly code: string;
  readonly details: ErrorDetail[];

  constructor(kind: ServiceErrorKind, code: string, message: string, details: ErrorDetail[] = []) {
    super(message);
    this.kind = kind;
    this.code = code;
    this.details = details;
  }

  toGrpc(): Partial<GrpcServiceError> {
    const metadata = new Metadata();
    metadata.set(CODE_METADATA_KEY, this.code);
    if (this.details.length > 0) metadata.set(DETAILS_METADATA_KEY, JSON.stringify(this.details));
    return { code: status[this.kind], details: this.message, metadata };
  }
}

/** Reads a ServiceError back from a failed client call, or undefined for transport failures. */
export function serviceErrorFromGrpc(error: unknown): ServiceError | undefined {
  if (!isGrpcError(error)) return undefined;
  const code = error.metadata?.get(CODE_METADATA_KEY)[0];
  if (typeof code !== "string") return undefined;
  const kind = (Object.keys(status) as (keyof typeof status)[]).find((name) => status[name] === error.code);
  const rawDetails = error.metadata.get(DETAILS_METADATA_KEY)[0];
  const details = typeof rawDetails === "string" ? (JSON.parse(rawDetails) as ErrorDetail[]) : [];
  return new ServiceError((kind ?? "UNAVAILABLE") as ServiceErrorKind, code, error.details, details);
}

export function isGrpcError(error: unknown): error is GrpcServiceError {
  return error instanceof Error && typeof (error as Partial<GrpcServiceError>).code === "number";
}
