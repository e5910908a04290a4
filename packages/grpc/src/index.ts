export { isUnstorableTextError } from "./classify-error.ts";
export { callUnary, connectClient, type UnaryMethod } from "./client.ts";
export { createGrpcServer, type GrpcServer, type ServiceBinding } from "./create-server.ts";
export {
  CODE_METADATA_KEY,
  type ErrorDetail,
  ServiceError,
  type ServiceErrorKind,
  serviceErrorFromGrpc,
} from "./service-error.ts";
export { unary } from "./unary.ts";
