import { Metadata, status } from "@grpc/grpc-js";
import {
  ConflictError,
  type DomainError,
  ForbiddenError,
  InvalidError,
  NotFoundError,
  TooManyError,
  UnavailableError,
} from "@pulsegate/contract/errors";
import { domainErrorToGrpc } from "@pulsegate/grpc";
import { describe, expect, it } from "vitest";
import { httpErrorFromGrpc, isGrpcError } from "./grpc-status-to-http.ts";

/** What a grpc-js client call rejects with. */
function grpcError(code: number, details: string, metadata = new Metadata()) {
  return Object.assign(new Error(`${code} ${details}`), { code, details, metadata });
}

/** A domain error as a service's edge sends it and a client receives it. */
function throughGrpc(error: DomainError) {
  const sent = domainErrorToGrpc(error);
  return grpcError(sent.code as number, sent.details as string, sent.metadata as Metadata);
}

describe("httpErrorFromGrpc", () => {
  it.each([
    [status.INVALID_ARGUMENT, 400, "invalid_request"],
    [status.NOT_FOUND, 404, "not_found"],
    [status.ALREADY_EXISTS, 409, "conflict"],
    [status.FAILED_PRECONDITION, 409, "conflict"],
    [status.PERMISSION_DENIED, 403, "forbidden"],
    [status.UNAVAILABLE, 503, "service_unavailable"],
    [status.DEADLINE_EXCEEDED, 503, "service_unavailable"],
    [status.RESOURCE_EXHAUSTED, 500, "internal"],
    [status.INTERNAL, 500, "internal"],
    [status.UNKNOWN, 500, "internal"],
    [status.UNIMPLEMENTED, 500, "internal"],
  ])("maps a bare gRPC status %i to HTTP %i %s", (code, http, name) => {
    expect(httpErrorFromGrpc(grpcError(code, "x"))).toMatchObject({ status: http, code: name });
  });

  it.each<[string, DomainError, number]>([
    ["NotFoundError", new NotFoundError("team_not_found", "No team."), 404],
    ["InvalidError", new InvalidError("invalid_cursor", "Not a cursor."), 400],
    ["ConflictError", new ConflictError("alert_resolved", "Resolved."), 409],
    ["ForbiddenError", new ForbiddenError("forbidden", "Not here."), 403],
    ["UnavailableError", new UnavailableError("The database is away; retry shortly."), 503],
  ])("answers a %s with its code and sentence under HTTP %i", (_, error, http) => {
    expect(httpErrorFromGrpc(throughGrpc(error))).toMatchObject({
      status: http,
      code: error.code,
      message: error.message,
    });
  });

  it("answers a TooManyError of a 429 code with its code, its sentence and Retry-After", () => {
    const error = httpErrorFromGrpc(throughGrpc(new TooManyError("channel_test_in_progress", "Busy.", 17)));
    expect([error.status, error.code, error.message, error.headers]).toEqual([
      429,
      "channel_test_in_progress",
      "Busy.",
      { "retry-after": "17" },
    ]);
  });

  it("answers a TooManyError of a code the catalogue does not answer 429 as 500 internal", () => {
    const error = httpErrorFromGrpc(throughGrpc(new TooManyError("too_many_channels", "No.", 5)));
    expect([error.status, error.code, error.message, error.headers]).toEqual([500, "internal", "Internal error.", {}]);
  });

  it("keeps an InvalidError's field details", () => {
    const error = httpErrorFromGrpc(
      throughGrpc(InvalidError.fields([{ field: "filterRules[0].op", message: "unknown operator" }])),
    );
    expect(error).toMatchObject({
      status: 400,
      code: "invalid_request",
      message: "unknown operator",
      details: [{ field: "filterRules[0].op", message: "unknown operator" }],
    });
    expect(httpErrorFromGrpc(throughGrpc(new NotFoundError("team_not_found", "No team."))).details).toBeUndefined();
  });

  it("answers every UnavailableError as service_unavailable with Retry-After, the service's if it gives one", () => {
    expect(httpErrorFromGrpc(throughGrpc(new UnavailableError("Away.")))).toMatchObject({
      status: 503,
      code: "service_unavailable",
      headers: { "retry-after": "5" },
    });
    expect(httpErrorFromGrpc(throughGrpc(new UnavailableError("Away.", { retryAfterSeconds: 2 })))).toMatchObject({
      status: 503,
      code: "service_unavailable",
      message: "Away.",
      headers: { "retry-after": "2" },
    });
  });

  it("answers a code the catalogue does not list, or lists under another status, with its status's generic code", () => {
    expect(httpErrorFromGrpc(throughGrpc(new NotFoundError("gadget_not_found", "No gadget.")))).toMatchObject({
      status: 404,
      code: "not_found",
      message: "No gadget.",
    });
    expect(httpErrorFromGrpc(throughGrpc(new ConflictError("team_not_found", "Odd.")))).toMatchObject({
      status: 409,
      code: "conflict",
    });
  });

  it("answers a down peer with 503 service_unavailable and Retry-After", () => {
    const error = httpErrorFromGrpc(grpcError(status.UNAVAILABLE, "No connection established"));
    expect(error).toMatchObject({ status: 503, code: "service_unavailable", headers: { "retry-after": "5" } });
    expect(error.message).not.toContain("connection");
  });

  it("never leaks the text of an internal failure", () => {
    const error = httpErrorFromGrpc(grpcError(status.INTERNAL, "relation alerts does not exist"));
    expect(error).toMatchObject({ status: 500, code: "internal", message: "Internal error." });
  });
});

describe("isGrpcError", () => {
  it("tells gRPC failures from other errors", () => {
    expect(isGrpcError(grpcError(status.UNAVAILABLE, "x"))).toBe(true);
    expect(isGrpcError(Object.assign(new Error("x"), { code: "ECONNREFUSED" }))).toBe(false);
    expect(isGrpcError(new Error("x"))).toBe(false);
  });
});
