import { ConflictError, InvalidError } from "@pulsegate/contract/errors";
import { domainErrorFromGrpc } from "./domain-error-status.ts";

type ErrorLike = { code?: unknown; cause?: unknown };

/** `error` and the errors in its cause chain (MikroORM wraps the driver's). */
function* causeChain(error: unknown): Generator<ErrorLike> {
  for (let current = error, depth = 0; current && typeof current === "object" && depth < 5; depth++) {
    yield current as ErrorLike;
    current = (current as ErrorLike).cause;
  }
}

/**
 * True when PostgreSQL refused a text it cannot store (U+0000: 22021 in text,
 * 22P05 in jsonb): the caller sent it, so it is INVALID_ARGUMENT, not INTERNAL.
 */
export function isUnstorableTextError(error: unknown): boolean {
  for (const { code } of causeChain(error)) if (code === "22021" || code === "22P05") return true;
  return false;
}

/**
 * SQLSTATEs of a row PostgreSQL will never store as it is: class 22 (data exception: a value out
 * of range, malformed, unstorable text) and the class 23 constraints a row breaks by itself (23502
 * not null, 23514 check). A unique or foreign key violation (23505, 23503) depends on other rows,
 * which may change, so it is not a verdict on the row.
 */
const NEVER_STORED = /^(22[0-9A-Z]{3}|23502|23514)$/;

/**
 * Why a receiver refused a queue's entry as invalid — retrying the same entry cannot change the
 * answer — in words safe to log and store (a status and a code, never a value); undefined for any
 * other failure, which the queue retries. Refused: INVALID_ARGUMENT or FAILED_PRECONDITION from
 * one of our services (a domain error it answered, domain-error-status.ts), or a PostgreSQL
 * refusal of the row itself (NEVER_STORED). Every queue that sets entries aside asks this
 * (docs/operations.md, "What our queues set aside"); an unreachable peer or database is
 * @pulsegate/runtime/transient-error's, and never a refusal.
 */
export function refusalOf(error: unknown): string | undefined {
  const answered = domainErrorFromGrpc(error);
  if (answered instanceof InvalidError) return `INVALID_ARGUMENT ${answered.code}`;
  if (answered instanceof ConflictError) return `FAILED_PRECONDITION ${answered.code}`;
  for (const { code } of causeChain(error)) {
    if (typeof code === "string" && NEVER_STORED.test(code)) return `SQLSTATE ${code}`;
  }
  return undefined;
}

/**
 * The reason an entry that failed on its own, for a reason other than an unreachable database or
 * peer, is set aside with: refusalOf's words, else the error's kind and code — never its message,
 * which for a database error can quote the row.
 */
export function setAsideReason(error: unknown): string {
  const refusal = refusalOf(error);
  if (refusal !== undefined) return refusal;
  const code = (error as { code?: unknown } | null)?.code;
  const name = error instanceof Error ? error.name : "Error";
  return typeof code === "string" ? `${name} (${code})` : name;
}
