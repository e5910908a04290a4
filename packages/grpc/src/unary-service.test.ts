import {
  type handleUnaryCall,
  Metadata,
  type ServerUnaryCall,
  type ServiceError,
  status,
  type UntypedServiceImplementation,
} from "@grpc/grpc-js";
import { BATCH_LIMITS } from "@pulsegate/contract/limits";
import { createLogger } from "@pulsegate/runtime/logger";
import { describe, expect, it } from "vitest";
import { domainErrorFromGrpc } from "./domain-error-status.ts";
import { unaryService } from "./unary-service.ts";

/** As ts-proto generates a server interface. */
interface Server extends UntypedServiceImplementation {
  record: handleUnaryCall<{ items: number[] }, { stored: number }>;
  lookUp: handleUnaryCall<{ ids: string[] }, { found: number }>;
}

let ran = 0;
const service = unaryService<Server>(
  createLogger("test", "silent"),
  {
    record: async (request) => {
      ran++;
      return { stored: request.items.length };
    },
    lookUp: async (request) => {
      ran++;
      return { found: request.ids.length };
    },
  },
  { record: { field: "items", noun: "items" }, lookUp: { field: "ids" } },
);

/** Calls `method` as grpc-js would; the answer, or the error it sent. */
function call<Req, Res>(method: handleUnaryCall<Req, Res>, request: Req): Promise<Res | Partial<ServiceError>> {
  const unaryCall = { getPath: () => "/test.v1.Test/Call", request } as unknown as ServerUnaryCall<Req, Res>;
  return new Promise((resolve) =>
    method(unaryCall, (error, answer) => resolve(error ? (error as Partial<ServiceError>) : (answer as Res))),
  );
}

describe("unaryService, a server's gRPC edge", () => {
  it("runs each method, and refuses a batch longer than the limit whole, before the method runs", async () => {
    const max = BATCH_LIMITS.maxItemsPerCall;
    ran = 0;
    expect(await call(service.record, { items: new Array(max).fill(1) })).toEqual({ stored: max });
    expect(await call(service.lookUp, { ids: new Array(max).fill("id") })).toEqual({ found: max });
    expect(ran).toBe(2);
    const refused = (await call(service.record, { items: new Array(max + 1).fill(1) })) as Partial<ServiceError>;
    expect(refused.code).toBe(status.INVALID_ARGUMENT);
    const error = domainErrorFromGrpc(
      Object.assign(new Error(String(refused.details)), { ...refused, metadata: refused.metadata ?? new Metadata() }),
    );
    expect(error).toMatchObject({
      code: "invalid_request",
      message: `At most ${max} items per call.`,
      details: [{ field: "items", message: `At most ${max} items per call.` }],
    });
    const noNoun = (await call(service.lookUp, { ids: new Array(max + 1).fill("id") })) as Partial<ServiceError>;
    expect(noNoun).toMatchObject({ code: status.INVALID_ARGUMENT, details: `At most ${max} per call.` });
    expect(ran).toBe(2);
  });
});
