import { randomUUIDv7 } from "node:crypto";
import { quotaAllowsOneMore, quotaKey, quotaMonth } from "@pulsegate/contract/quota";
import type { AlertSource, Severity } from "@pulsegate/contract/vocabulary";
import type { IdempotencyKey } from "@pulsegate/db";
import { type AlertEventType, alertEvent, type OutboxEvent } from "../outbox/write-outbox-events.ts";
import type { AlertView } from "./alert-row.ts";
import { type Episode, laterOf, type Reopening, reminderAfter, reopenedView } from "./fold-rule.ts";

/** One accepted trigger, after filter rules, ready to fold. */
export type FoldInput = {
  teamId: string;
  source: AlertSource;
  sourceId: string;
  title: string;
  description: string;
  severity: Severity;
  metadataJson: string | null;
  /** metadataJson parsed (null when there is none), as the outbox event shows it. */
  metadata: unknown;
  groupKey: string | null;
  reopenWindowSeconds: number;
  alertQuotaMonthly: number;
  receivedAt: Date;
  /** The W3C traceparent of the request the trigger came from: its notifications continue that trace. */
  traceparent?: string | null;
  /** Reminders while the alert it creates or reopens stays open and unacknowledged; null or absent: none. */
  repeatIntervalSeconds?: number | null;
  /** The silence that matches this trigger now: the alert it creates or reopens notifies nobody. */
  silencedBy?: string | null;
  /** The request's Idempotency-Key (idempotent-triggers.ts); absent: none. */
  idempotency?: IdempotencyKey | null;
};

export type FoldResult =
  | {
      outcome: "created" | "occurrence_added" | "reopened";
      alertId: string;
      occurrenceCount: number;
      /** The answer of the idempotency key's first trigger, given again; nothing was folded now. */
      replayed?: boolean;
    }
  | { outcome: "quota_exhausted" };

/** What the database holds for one (team, group key), read under its advisory lock. */
export type KeyState =
  | { kind: "open"; alertId: string }
  /** The newest alert with the key, resolved within the first trigger's reopen window. */
  | { kind: "resolved"; alert: AlertView }
  | { kind: "none" };

/** An alert the batch inserts: the view's stored fields, metadata as JSON text. */
export type NewAlert = Pick<
  AlertView,
  | "id"
  | "teamId"
  | "groupKey"
  | "title"
  | "description"
  | "severity"
  | "occurrenceCount"
  | "source"
  | "sourceId"
  | "firstSeenAt"
  | "lastSeenAt"
> & {
  metadataJson: string | null;
  repeatIntervalSeconds: number | null;
  silencedBy: string | null;
};

/** Triggers added to an existing alert; `reopen`: it was resolved and opens again. */
export type Bump = {
  alertId: string;
  added: number;
  reopen: boolean;
  lastSeenAt: Date;
  /** For a reopen: the reopening trigger's reminder interval, and the silence it is under. */
  repeatIntervalSeconds: number | null;
  silencedBy: string | null;
  /** For a reopen: the reopening trigger's episode, which the alert takes; null for a fold. */
  episode: Episode | null;
};

export type OccurrenceRow = {
  alertId: string;
  outcome: "created" | "occurrence_added" | "reopened";
  input: FoldInput;
};

export type QuotaCount = { teamId: string; month: string; count: number };

/** A result known once the batch is written: counts of bumped alerts come back from the database. */
export type PlannedResult =
  | FoldResult
  | { outcome: "created" | "occurrence_added" | "reopened"; bump: Bump; position: number };

export type BatchPlan = {
  creates: NewAlert[];
  bumps: Bump[];
  /** In batch order. */
  occurrences: OccurrenceRow[];
  /** Each with the traceparent of the trigger that created or reopened the alert (null: none). */
  events: OutboxEvent[];
  quota: QuotaCount[];
  results: PlannedResult[];
};

export function keyOf(teamId: string, groupKey: string): string {
  return `${teamId}\u0000${groupKey}`;
}

/**
 * Time-ordered (UUIDv7: 48 bits of milliseconds, 74 random): a new alert's id sorts after the ones before it,
 * so the indexes keyed by it (the alerts' key, their occurrences' and outbox events') take it at their right
 * edge instead of on a random page each (docs/decisions.md "Time-ordered ids").
 */
export function newAlertId(): string {
  return `alert_${randomUUIDv7().replaceAll("-", "")}`;
}

type Group = { kind: "refused" } | { kind: "created"; alert: NewAlert } | { kind: "bumped"; bump: Bump };

/**
 * Decides a batch (DESIGN §4) from what the database holds for its keys and,
 * for teams with a quota, their usage this month (read under lock):
 * - an open alert with the key → every trigger of the key folds into it;
 * - else the first trigger of the key reopens the resolved alert, or creates
 *   one, and the others of the key fold into that;
 * - a trigger without a group key creates an alert of its own.
 * Creates and reopens take the team's quota in batch order (a quota of 0 is
 * unlimited but still counted); one refused refuses the rest of its key.
 * Counts are handed out in batch order.
 */
export function planBatch(
  inputs: readonly FoldInput[],
  states: ReadonlyMap<string, KeyState>,
  usage: ReadonlyMap<string, number>,
  newId: () => string = newAlertId,
): BatchPlan {
  const plan: BatchPlan = { creates: [], bumps: [], occurrences: [], events: [], quota: [], results: [] };
  const used = new Map(usage);
  const counted = new Map<string, QuotaCount>();
  const groups = new Map<string, Group>();

  const takeQuota = (input: FoldInput): boolean => {
    const month = quotaMonth(input.receivedAt);
    const key = quotaKey(input.teamId, month);
    if (input.alertQuotaMonthly > 0) {
      const current = used.get(key);
      // The classify step locks the usage of every team with a quota that may create.
      if (current === undefined) throw new Error("quota usage was not read for a team with a quota");
      if (!quotaAllowsOneMore(input.alertQuotaMonthly, current)) return false;
    }
    used.set(key, (used.get(key) ?? 0) + 1);
    const count = counted.get(key) ?? { teamId: input.teamId, month, count: 0 };
    count.count += 1;
    counted.set(key, count);
    return true;
  };

  const create = (input: FoldInput): NewAlert => {
    const alert: NewAlert = {
      id: newId(),
      teamId: input.teamId,
      groupKey: input.groupKey,
      title: input.title,
      description: input.description,
      severity: input.severity,
      occurrenceCount: 0,
      source: input.source,
      sourceId: input.sourceId,
      metadataJson: input.metadataJson,
      firstSeenAt: input.receivedAt,
      lastSeenAt: input.receivedAt,
      repeatIntervalSeconds: input.repeatIntervalSeconds ?? null,
      silencedBy: input.silencedBy ?? null,
    };
    plan.creates.push(alert);
    // A silenced alert is recorded, but its event is not written: nobody is notified.
    if (alert.silencedBy === null) plan.events.push(event("alert.created", createdView(alert, input.metadata), input));
    return alert;
  };

  const bump = (alertId: string, at: Date, reopening: Reopening | null): Bump => {
    const bumped: Bump = {
      alertId,
      added: 0,
      reopen: reopening !== null,
      lastSeenAt: at,
      ...(reopening ?? { repeatIntervalSeconds: null, silencedBy: null, episode: null }),
    };
    plan.bumps.push(bumped);
    return bumped;
  };

  const firstOfKey = (input: FoldInput, groupKey: string): Group => {
    const state = states.get(keyOf(input.teamId, groupKey)) ?? { kind: "none" };
    if (state.kind === "open") return { kind: "bumped", bump: bump(state.alertId, input.receivedAt, null) };
    if (!takeQuota(input)) return { kind: "refused" };
    if (state.kind === "none") return { kind: "created", alert: create(input) };
    const reopening: Reopening = {
      repeatIntervalSeconds: input.repeatIntervalSeconds ?? null,
      silencedBy: input.silencedBy ?? null,
      episode: episodeOf(input),
    };
    if (reopening.silencedBy === null) {
      const view = reopenedView(state.alert, input.receivedAt, reopening, input.metadata);
      plan.events.push(event("alert.reopened", view, input));
    }
    return { kind: "bumped", bump: bump(state.alert.id, input.receivedAt, reopening) };
  };

  for (const input of inputs) {
    let group: Group;
    if (input.groupKey === null) {
      group = takeQuota(input) ? { kind: "created", alert: create(input) } : { kind: "refused" };
    } else {
      const key = keyOf(input.teamId, input.groupKey);
      group = groups.get(key) ?? firstOfKey(input, input.groupKey);
      groups.set(key, group);
    }
    if (group.kind === "refused") {
      plan.results.push({ outcome: "quota_exhausted" });
      continue;
    }
    if (group.kind === "created") {
      const alert = group.alert;
      alert.occurrenceCount += 1;
      alert.lastSeenAt = laterOf(alert.lastSeenAt, input.receivedAt);
      const outcome = alert.occurrenceCount === 1 ? "created" : "occurrence_added";
      plan.results.push({ outcome, alertId: alert.id, occurrenceCount: alert.occurrenceCount });
      plan.occurrences.push({ alertId: alert.id, outcome, input });
      continue;
    }
    const bumped = group.bump;
    bumped.added += 1;
    bumped.lastSeenAt = laterOf(bumped.lastSeenAt, input.receivedAt);
    const outcome = bumped.reopen && bumped.added === 1 ? "reopened" : "occurrence_added";
    plan.results.push({ outcome, bump: bumped, position: bumped.added });
    plan.occurrences.push({ alertId: bumped.alertId, outcome, input });
  }
  plan.quota = [...counted.values()];
  return plan;
}

/** Final results, given each bumped alert's occurrence count after the write. */
export function resolveResults(plan: BatchPlan, countAfter: ReadonlyMap<string, number>): FoldResult[] {
  return plan.results.map((result) => {
    if (!("bump" in result)) return result;
    const after = countAfter.get(result.bump.alertId);
    if (after === undefined) throw new Error("a bumped alert was not returned by the write");
    return {
      outcome: result.outcome,
      alertId: result.bump.alertId,
      occurrenceCount: after - result.bump.added + result.position,
    };
  });
}

function event(type: AlertEventType, alert: AlertView, trigger: FoldInput): OutboxEvent {
  return alertEvent(type, alert, trigger.receivedAt, trigger.traceparent || null);
}

/** The alert as its first trigger created it (later triggers of the batch fold into it). */
function createdView(alert: NewAlert, metadata: unknown): AlertView {
  return {
    id: alert.id,
    teamId: alert.teamId,
    status: "open",
    groupKey: alert.groupKey,
    title: alert.title,
    description: alert.description,
    severity: alert.severity,
    occurrenceCount: 1,
    source: alert.source,
    sourceId: alert.sourceId,
    metadata,
    firstSeenAt: alert.firstSeenAt,
    lastSeenAt: alert.firstSeenAt,
    acknowledgedAt: null,
    resolvedAt: null,
    acknowledgedBy: null,
    resolvedBy: null,
    createdAt: alert.firstSeenAt,
    repeatIntervalSeconds: alert.repeatIntervalSeconds,
    nextReminderAt: reminderAfter(alert.firstSeenAt, alert.repeatIntervalSeconds),
    remindersSent: 0,
    silencedBy: alert.silencedBy,
  };
}

function episodeOf(input: FoldInput): Episode {
  return {
    title: input.title,
    description: input.description,
    severity: input.severity,
    metadataJson: input.metadataJson,
  };
}
