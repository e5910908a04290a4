import { ALERT_LIMITS, PING_LIMITS } from "@pulsegate/contract/limits";
import type { PingStatus, Severity } from "@pulsegate/contract/vocabulary";

export type ValidationDetail = { field: string; message: string };

export type ParseResult<T> = { ok: true; value: T } | { ok: false; details: ValidationDetail[] };

export type Metadata = Record<string, unknown>;

export type TriggerBody = {
  title: string;
  description?: string;
  severity?: Severity;
  metadata?: Metadata;
  group_key?: string;
};

export type PingBody = {
  status: PingStatus;
  reason?: string;
  group_key?: string;
  metadata?: Metadata;
};

// The interface's bounds, under the names the parsers use; their numbers live in @pulsegate/limits.
export const TITLE_MAX = ALERT_LIMITS.titleMaxLength;
export const DESCRIPTION_MAX = ALERT_LIMITS.descriptionMaxLength;
export const GROUP_KEY_MAX = ALERT_LIMITS.groupKeyMaxLength;
export const REASON_MAX = PING_LIMITS.reasonMaxLength;
export const METADATA_MAX_BYTES = ALERT_LIMITS.metadataMaxBytes;
export const METADATA_MAX_DEPTH = ALERT_LIMITS.metadataMaxDepth;
