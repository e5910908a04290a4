export const SEVERITIES = ["sev0", "sev1", "sev2", "sev3", "sev4"] as const;
export type Severity = (typeof SEVERITIES)[number];

/** "start" opens a run (start/finish signals, issue 13); the next up or down ping closes it. */
export const PING_STATUSES = ["up", "down", "start"] as const;
export type PingStatus = (typeof PING_STATUSES)[number];

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
