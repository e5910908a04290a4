import type { MethodDefinition } from "@grpc/grpc-js";

const serialize = (value: unknown) => Buffer.from(JSON.stringify(value));
const deserialize = (bytes: Buffer) => JSON.parse(bytes.toString()) as unknown;

/** A unary method over JSON instead of protobuf, for this package's tests of real clients and servers. */
export function jsonMethod(path: string): MethodDefinition<unknown, unknown> {
  return {
    path,
    requestStream: false,
    responseStream: false,
    requestSerialize: serialize,
    requestDeserialize: deserialize,
    responseSerialize: serialize,
    responseDeserialize: deserialize,
  };
}
