import type { PingStatus, Severity } from "@pulsegate/vocabulary";

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

export const TITLE_MAX = 200;
export const DESCRIPTION_MAX = 2000;
export const GROUP_KEY_MAX = 200;
export const REASON_MAX = 200;
export const METADATA_MAX_BYTES = 102_400;
export const METADATA_MAX_DEPTH = 10;
