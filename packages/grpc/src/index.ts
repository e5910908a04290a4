export { type ErrorDetail, ServiceError, type ServiceErrorKind, serviceErrorFromGrpc, CODE_METADATA_KEY } from "./service-error.ts";
export { unary } from "./unary.ts";
export { createGrpcServer, type GrpcServer, type ServiceBinding } from "./create-server.ts";
export { connectClient, callUnary, type UnaryMethod } from "./client.ts";
