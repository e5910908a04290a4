import { Metadata, status } from "@grpc/grpc-js";
import { ServiceError } from "@pulsegate/grpc";
import { describe, expect, it } from "vitest";
import { httpErrorFromGrpc, isGrpcError } from "./grpc-status-to-http.ts";

/** What a grpc-js client call rejects with. */
function grpcError(code: number, details: string, metadata = new Metadata()) {
  return Object.assign(new Error(`${code} ${details}`), { code, details, metadata });
}

function fromService(error: ServiceError) {
  const sent = error.toGrpc();
  return grpcError(sent.code as number, sent.details as string, sent.metadata as Metadata);
}

describe("httpErrorFromGrpc", () => {
  it.each([
    [status.INVALID_ARGUMENT, 400],
    [status.NOT_FOUND, 404],
    [status.ALREADY_EXISTS, 409],
    [status.FAILED_PRECONDITION, 409],
    [status.PERMISSION_DENIED, 403],
    [status.RESOURCE_EXHAUSTED, 429],
    [status.UNAVAILABLE, 503],
    [status.DEADLINE_EXCEEDED, 503],
    [status.INTERNAL, 500],
    [status.UNKNOWN, 500],
    [status.UNIMPLEMENTED, 500],
  ])("maps gRPC status %i to HTTP %i", (code, http) => {
    expect(httpErrorFromGrpc(grpcError(code, "x")).status).toBe(http);
  });

  it("uses the ServiceError's code, sentence and details", () => {
    const error = httpErrorFromGrpc(
      fromService(
        new ServiceError("INVALID_ARGUMENT", "invalid_request", "Filter rule 1 is invalid.", [
          { field: "filterRules[0].op", message: "unknown operator" },
        ]),
      ),
    );
    expect(error).toMatchObject({
      status: 400,
      code: "invalid_request",
      message: "Filter rule 1 is invalid.",
      details: [{ field: "filterRules[0].op", message: "unknown operator" }],
    });
    expect(httpErrorFromGrpc(fromService(new ServiceError("NOT_FOUND", "team_not_found", "No team.")))).toMatchObject({
      status: 404,
      code: "team_not_found",
      message: "No team.",
      details: undefined,
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
