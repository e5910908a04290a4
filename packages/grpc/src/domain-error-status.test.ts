import { Metadata, type ServerUnaryCall, type ServiceError, status } from "@grpc/grpc-js";
import {
  ConflictError,
  type DomainError,
  ForbiddenError,
  InvalidError,
  NotFoundError,
  TooManyError,
  UnavailableError,
} from "@pulsegate/contract/errors";
import { createLogger } from "@pulsegate/runtime/logger";
import { describe, expect, it } from "vitest";
import { domainErrorFromGrpc, domainErrorToGrpc } from "./domain-error-status.ts";
import { unary } from "./unary.ts";

/** What a grpc-js client call rejects with, for what a handler answered. */
function received(sent: Partial<ServiceError>) {
  return Object.assign(new Error(String(sent.details)), {
    code: sent.code,
    details: sent.details,
    metadata: sent.metadata ?? new Metadata(),
  });
}

/** Runs `unary` around a handler that throws `error`, and returns what it answered grpc-js. */
function answerOf(error: unknown): Promise<Partial<ServiceError>> {
  const handler = unary(createLogger("test", "silent"), async () => {
    throw error;
  });
  const call = { getPath: () => "/test.v1.TestService/Do", request: {} } as unknown as ServerUnaryCall<object, object>;
  return new Promise((resolve) => handler(call, (answer) => resolve(answer as Partial<ServiceError>)));
}

describe("domain errors through gRPC", () => {
  it.each<[DomainError, number]>([
    [new NotFoundError("alert_not_found", "No alert has that id."), status.NOT_FOUND],
    [new InvalidError("invalid_cursor", "The cursor is not one this API returned."), status.INVALID_ARGUMENT],
    [new ConflictError("alert_resolved", "The alert is resolved."), status.FAILED_PRECONDITION],
    [new ForbiddenError("sign_not_allowed", "Sign is served on the signing listener only."), status.PERMISSION_DENIED],
    [new UnavailableError("The monitors database is unavailable; retry shortly."), status.UNAVAILABLE],
    [new TooManyError("channel_test_in_progress", "A test is in flight.", 3), status.RESOURCE_EXHAUSTED],
  ])("%s is sent as status %i and read back as the same kind, code and sentence", (error, code) => {
    const sent = domainErrorToGrpc(error);
    expect(sent.code).toBe(code);
    const back = domainErrorFromGrpc(received(sent));
    expect(back).toBeInstanceOf(error.constructor);
    expect(back).toMatchObject({ code: error.code, message: error.message });
  });

  it("carries an InvalidError's field details and an UnavailableError's retry-after", () => {
    const invalid = InvalidError.fields([
      { field: "name", message: "name is required." },
      { field: "severity", message: "severity must be sev0..sev4." },
    ]);
    expect(domainErrorFromGrpc(received(domainErrorToGrpc(invalid)))).toMatchObject({
      code: "invalid_request",
      message: "name is required.",
      details: invalid.details,
    });
    const away = new UnavailableError("Away.", { retryAfterSeconds: 7 });
    expect(domainErrorFromGrpc(received(domainErrorToGrpc(away)))).toMatchObject({
      code: "service_unavailable",
      retryAfterSeconds: 7,
    });
    expect(domainErrorFromGrpc(received(domainErrorToGrpc(new UnavailableError("Away."))))).toMatchObject({
      retryAfterSeconds: undefined,
    });
    const busy = new TooManyError("channel_test_in_progress", "Busy.", 12);
    expect(domainErrorFromGrpc(received(domainErrorToGrpc(busy)))).toMatchObject({
      code: "channel_test_in_progress",
      message: "Busy.",
      retryAfterSeconds: 12,
    });
  });

  it("reads nothing from a transport failure or a bare status", () => {
    expect(domainErrorFromGrpc(received({ code: status.UNAVAILABLE, details: "No connection established" }))).toBe(
      undefined,
    );
    expect(domainErrorFromGrpc(new Error("not gRPC"))).toBe(undefined);
  });
});

describe("unary, the services' gRPC error edge", () => {
  it("answers a domain error with its status, code and sentence", async () => {
    const answer = await answerOf(new ConflictError("alert_resolved", "The alert is resolved."));
    expect(answer).toMatchObject({ code: status.FAILED_PRECONDITION, details: "The alert is resolved." });
    expect(answer.metadata?.get("pulsegate-code")).toEqual(["alert_resolved"]);
  });

  it("answers an unreachable database as UNAVAILABLE service_unavailable, the one 'retry shortly' code", async () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    const answer = await answerOf(new Error("query failed", { cause: refused }));
    expect(answer.code).toBe(status.UNAVAILABLE);
    expect(answer.metadata?.get("pulsegate-code")).toEqual(["service_unavailable"]);
  });

  it("answers text PostgreSQL cannot store as INVALID_ARGUMENT invalid_request", async () => {
    const answer = await answerOf(Object.assign(new Error("invalid byte sequence"), { code: "22021" }));
    expect(answer.code).toBe(status.INVALID_ARGUMENT);
    expect(answer.metadata?.get("pulsegate-code")).toEqual(["invalid_request"]);
  });

  it("answers anything else INTERNAL without its text", async () => {
    const answer = await answerOf(new TypeError("secret detail"));
    expect(answer).toEqual({ code: status.INTERNAL, details: "Internal error." });
  });
});
