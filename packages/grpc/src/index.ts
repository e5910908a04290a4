export { isUnstorableTextError, refusalOf, setAsideReason } from "./classify-error.ts";
export { callUnary, connectClient, type DeadlineClient, type UnaryMethod } from "./client.ts";
export { createGrpcServer, type GrpcServer, LIVENESS_SERVICE, type ServiceBinding } from "./create-server.ts";
export {
  CODE_METADATA_KEY,
  domainErrorFromGrpc,
  domainErrorToGrpc,
  grpcStatusOf,
} from "./domain-error-status.ts";
export { outcomeFields } from "./outcome-fields.ts";
export { type QueueName, reportSetAside } from "./set-aside.ts";
export { type BatchField, type UnaryHandlers, unaryService } from "./unary-service.ts";
