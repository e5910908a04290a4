import type { handleUnaryCall, ServerUnaryCall, UntypedServiceImplementation } from "@grpc/grpc-js";
import { InvalidError } from "@pulsegate/contract/errors";
import { BATCH_LIMITS } from "@pulsegate/contract/limits";
import type { Logger } from "@pulsegate/runtime/logger";
import { unary } from "./unary.ts";

/** A generated server interface's methods, without the index signature grpc-js adds. */
type Methods<S> = { [K in keyof S as string extends K ? never : K]: S[K] };

/** A service's methods as plain async functions: what a binding writes. */
export type UnaryHandlers<S> = {
  [K in keyof Methods<S>]: Methods<S>[K] extends handleUnaryCall<infer Req, infer Res>
    ? (request: Req, call: ServerUnaryCall<Req, Res>) => Promise<Res>
    : never;
};

/**
 * A batch method's list: the request field that holds it, and what its entries are called in the
 * refusal ("items": "At most 500 items per call."; none: "At most 500 per call.").
 */
export type BatchField = { field: string; noun?: string };

/**
 * The service's gRPC edge, applied once to every method: errors mapped, calls timed and logged
 * (unary.ts), and a batch method's list refused whole when it holds more than
 * BATCH_LIMITS.maxItemsPerCall entries (INVALID_ARGUMENT naming the field), before the method runs.
 */
export function unaryService<S extends UntypedServiceImplementation>(
  log: Logger,
  handlers: UnaryHandlers<S>,
  batches: { [K in keyof Methods<S>]?: BatchField } = {},
): S {
  const implementation: Record<string, handleUnaryCall<unknown, unknown>> = {};
  const entries = Object.entries(handlers) as [string, (request: unknown, call: never) => Promise<unknown>][];
  for (const [name, handler] of entries) {
    const batch = (batches as Record<string, BatchField | undefined>)[name];
    implementation[name] = unary(log, async (request, call) => {
      if (batch) checkBatchSize((request as Record<string, unknown>)[batch.field], batch);
      return handler(request, call as never);
    });
  }
  return implementation as unknown as S;
}

/** The one batch-size check of the gRPC servers. */
function checkBatchSize(list: unknown, { field, noun }: BatchField): void {
  if (Array.isArray(list) && list.length > BATCH_LIMITS.maxItemsPerCall) {
    const what = noun ? `${noun} per call` : "per call";
    throw InvalidError.fields([{ field, message: `At most ${BATCH_LIMITS.maxItemsPerCall} ${what}.` }]);
  }
}
