export { codePointLength } from "./fields.ts";
export { checkMetadata } from "./metadata.ts";
export { parsePingBody } from "./ping.ts";
export { parseResolveBody, type ResolveBody } from "./resolve.ts";
export { parseTriggerBody } from "./trigger.ts";
export type {
  Metadata,
  ParseResult,
  PingBody,
  TriggerBody,
  ValidationDetail,
} from "./types.ts";
export { METADATA_MAX_BYTES, METADATA_MAX_DEPTH } from "./types.ts";
