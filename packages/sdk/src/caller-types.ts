import type { MonitorStatus, PingStatus, Severity } from "./words.ts";

/** Shapes of the public, signed endpoints (spec §4). */

/** A trigger; sent as `{title, description, severity, group_key, metadata}`. */
export type TriggerInput = {
  /** At most 200 characters. */
  title: string;
  /** At most 2000 characters. */
  description?: string;
  /** Overrides the webhook's default severity. */
  severity?: Severity;
  /** Identical keys fold into one open alert (at most 200 characters). */
  groupKey?: string;
  /** Free key-value payload, read by filter rules (at most 100 KB, 10 levels). */
  metadata?: Record<string, unknown>;
};

export type TriggerStatus = "created" | "occurrence_added" | "reopened" | "filtered";

/** The answer to a trigger: 201 for the first three statuses, 200 for `filtered`. */
export type TriggerResult = {
  status: TriggerStatus;
  /** Absent when filtered. */
  alertId?: string;
  /** Absent when filtered. */
  occurrenceCount?: number;
  message: string;
  /** The rule that rejected a filtered trigger. */
  reason?: string;
};

/** A ping; no input (or an empty one) sends no body, which the service takes as "up". */
export type PingInput = {
  /** "start" opens a run (start/finish signals): the next up or down ping closes it. */
  status?: PingStatus;
  /** At most 200 characters; drives down-to-down de-duplication. */
  reason?: string;
  /** Sent as `group_key`, folded into the ping's metadata. */
  groupKey?: string;
  metadata?: Record<string, unknown>;
};

export type PingResult = {
  /** Always "Ping received". */
  message: string;
  monitor: { name: string; status: MonitorStatus; monitoringActive: boolean };
  pingStatus: PingStatus;
};

export type PingOptions = {
  /** POST (default) or GET; GET sends no body. */
  method?: "POST" | "GET";
  signal?: AbortSignal;
  /**
   * Sent as `Idempotency-Key` on every attempt of this call (default: a new UUID per call), so a
   * retry after a lost answer is applied once. Pass your own to make retries across calls or
   * processes one request (at most 255 visible ASCII characters).
   */
  idempotencyKey?: string;
  /** Checked and answered as usual, but nothing is stored or notified. */
  dryRun?: boolean;
};

export type TriggerOptions = {
  signal?: AbortSignal;
  /** As for pings: the same key on every attempt, a new UUID per call unless given. */
  idempotencyKey?: string;
  /** Checked and answered as usual, but nothing is stored or notified. */
  dryRun?: boolean;
};
