export { codePointLength } from "./field-checks.ts";
export { checkMetadata } from "./metadata.ts";
export { parsePingBody } from "./ping.ts";
export type {
  Metadata,
  ParseResult,
  PingBody,
  TriggerBody,
  ValidationDetail,
} from "./request-bodies.ts";
export { METADATA_MAX_BYTES, METADATA_MAX_DEPTH } from "./request-bodies.ts";
export { parseResolveBody, type ResolveBody } from "./resolve.ts";
export { parseTriggerBody } from "./trigger.ts";
