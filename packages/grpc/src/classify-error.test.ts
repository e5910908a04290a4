import { Metadata, status } from "@grpc/grpc-js";
import { ConflictError, InvalidError, NotFoundError, UnavailableError } from "@pulsegate/contract/errors";
import { describe, expect, it } from "vitest";
import { isUnstorableTextError, refusalOf, setAsideReason } from "./classify-error.ts";
import { domainErrorToGrpc } from "./domain-error-status.ts";

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

/** What a grpc-js client call rejects with when one of our services answered `error`. */
function answered(error: InvalidError | ConflictError | NotFoundError | UnavailableError) {
  const sent = domainErrorToGrpc(error);
  return Object.assign(new Error(String(sent.details)), {
    code: sent.code,
    details: sent.details,
    metadata: sent.metadata,
  });
}

describe("isUnstorableTextError", () => {
  it("recognises PostgreSQL refusing U+0000 in text and jsonb, also behind a cause", () => {
    expect(isUnstorableTextError(withCode("invalid byte sequence", "22021"))).toBe(true);
    expect(isUnstorableTextError(new Error("x", { cause: withCode("y", "22P05") }))).toBe(true);
    expect(isUnstorableTextError(withCode("duplicate key", "23505"))).toBe(false);
  });
});

describe("refusalOf", () => {
  it("names INVALID_ARGUMENT and FAILED_PRECONDITION answered by our services, by status and code only", () => {
    const invalid = new InvalidError("invalid_argument", "entries[0] needs an id, a team, an action and a target.");
    expect(refusalOf(answered(invalid))).toBe("INVALID_ARGUMENT invalid_argument");
    expect(refusalOf(answered(new ConflictError("alert_resolved", "The alert is resolved.")))).toBe(
      "FAILED_PRECONDITION alert_resolved",
    );
  });

  it("leaves other answers, bare statuses and transport failures to be retried", () => {
    expect(refusalOf(answered(new NotFoundError("team_not_found", "No such team.")))).toBeUndefined();
    expect(refusalOf(answered(new UnavailableError("A dependency is unavailable; retry shortly.")))).toBeUndefined();
    // INVALID_ARGUMENT without our code: not a verdict of one of our services.
    const bare = Object.assign(new Error("bare"), {
      code: status.INVALID_ARGUMENT,
      details: "x",
      metadata: new Metadata(),
    });
    expect(refusalOf(bare)).toBeUndefined();
    expect(refusalOf(withCode("connect ECONNREFUSED 127.0.0.1:50051", "ECONNREFUSED"))).toBeUndefined();
    expect(refusalOf(new TypeError("x is undefined"))).toBeUndefined();
  });

  it("names a row PostgreSQL will never store: class 22, not null and check violations, behind causes too", () => {
    expect(refusalOf(withCode("timestamp out of range", "22008"))).toBe("SQLSTATE 22008");
    expect(refusalOf(withCode("invalid input syntax", "22P02"))).toBe("SQLSTATE 22P02");
    expect(refusalOf(new Error("wrapped", { cause: withCode("check", "23514") }))).toBe("SQLSTATE 23514");
    expect(refusalOf(withCode("null value", "23502"))).toBe("SQLSTATE 23502");
  });

  it("leaves violations that depend on other rows, and an unreachable database, to be retried", () => {
    for (const code of ["23505", "23503", "40001", "57P01", "08006", "42P01"]) {
      expect(refusalOf(withCode("x", code)), code).toBeUndefined();
    }
  });
});

describe("setAsideReason", () => {
  it("is refusalOf's words for a refusal, else the error's kind and code, never its message", () => {
    expect(setAsideReason(withCode("value out of range: 99999", "22003"))).toBe("SQLSTATE 22003");
    expect(setAsideReason(withCode("duplicate key (id)=(secret)", "23505"))).toBe("Error (23505)");
    expect(setAsideReason(new TypeError("cannot read 'routes' of {\"broken\": true}"))).toBe("TypeError");
    expect(setAsideReason("thrown text")).toBe("Error");
  });
});
