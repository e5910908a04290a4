/**
 * The failures domain code reports, in its own words: no transport here. Each gRPC edge maps them
 * to a status in one place (@pulsegate/grpc), and the gateway's error catalogue maps their codes
 * to HTTP. `code` is the stable snake_case name callers see; the message is a sentence for people.
 */

/** A field-level problem: which field (dotted path) and what is wrong with it. */
export type FieldProblem = { field: string; message: string };

/** The one code a caller sees for "retry shortly" (503 with Retry-After), whatever is away. */
export const RETRY_SHORTLY_CODE = "service_unavailable";

export abstract class DomainError extends Error {
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

/** The thing asked for does not exist (or, to this caller, might as well not). */
export class NotFoundError extends DomainError {
  override name = "NotFoundError";
}

/** The request breaks a rule; `details` names each field and what is wrong with it. */
export class InvalidError extends DomainError {
  override name = "InvalidError";
  readonly details: FieldProblem[];

  constructor(code: string, message: string, details: FieldProblem[] = []) {
    super(code, message);
    this.details = details;
  }

  /** `invalid_request` with field problems; the first one is the sentence. */
  static fields(details: FieldProblem[]): InvalidError {
    return new InvalidError("invalid_request", details[0]?.message ?? "The request is invalid.", details);
  }
}

/** The resource's current state does not allow this now. */
export class ConflictError extends DomainError {
  override name = "ConflictError";
}

/** This caller may not do this here. */
export class ForbiddenError extends DomainError {
  override name = "ForbiddenError";
}

/** Something the operation needs is away for now: retry shortly, after `retryAfterSeconds` if given. */
export class UnavailableError extends DomainError {
  override name = "UnavailableError";
  readonly retryAfterSeconds: number | undefined;

  constructor(message: string, options: { retryAfterSeconds?: number; cause?: unknown } = {}) {
    super(RETRY_SHORTLY_CODE, message);
    this.retryAfterSeconds = options.retryAfterSeconds;
    if (options.cause !== undefined) this.cause = options.cause;
  }
}

/** A bound on what this caller may have in flight is reached: retry after `retryAfterSeconds` (HTTP 429). */
export class TooManyError extends DomainError {
  override name = "TooManyError";
  readonly retryAfterSeconds: number;

  constructor(code: string, message: string, retryAfterSeconds: number) {
    super(code, message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
