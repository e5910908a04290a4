import type { EntityManager, Orm } from "@pulsegate/db";
import { reportSetAside } from "@pulsegate/grpc";
import { exponentialDelay } from "@pulsegate/runtime/backoff";
import type { Logger } from "@pulsegate/runtime/logger";
import { context, inBackgroundSpan } from "@pulsegate/telemetry";
import { selectOpenAlertIds } from "../monitors/select-open-alert-ids.ts";
import type { AlertsPort } from "./alerts-port.ts";
import {
  type ClaimedIncidentAction,
  claimIncidentActions,
  completeIncidentAction,
  isIncidentActionDone,
  retryIncidentAction,
  setAsideIncidentAction,
} from "./incident-action-queue.ts";

const BATCH = 20;
const LEASE_SECONDS = 30;
/** The retry backoff, in seconds: 1, 2, 4 … up to 30, without jitter. */
const BACKOFF_SECONDS = { base: 1, max: 30 };

/**
 * Sends the incident outbox to alerts: a raise is a TriggerAlert (source
 * monitor), a resolve is a ResolveAlert of every alert the monitor's incident
 * raised. Actions are claimed with a lease in a short transaction and the RPC
 * runs after its commit; only the oldest pending action of a monitor is
 * claimable, so a monitor's raises and resolves reach alerts in order, and
 * SKIP LOCKED lets replicas share the work. A failed call is retried with
 * backoff; a call whose completion was lost is repeated, which alerts folds
 * into the same open alert.
 */
export class IncidentWorker {
  readonly #orm: Orm;
  readonly #alerts: AlertsPort;
  readonly #log: Logger;

  constructor(orm: Orm, alertsPort: AlertsPort, log: Logger) {
    this.#orm = orm;
    this.#alerts = alertsPort;
    this.#log = log;
  }

  /** One pass; true when it found work (there may be more behind it). */
  async runOnce(): Promise<boolean> {
    const claimed = await this.#claim(null);
    await Promise.all(claimed.map((action) => this.#process(action)));
    return claimed.length > 0;
  }

  /**
   * Sends one action now, for the ping that wrote it: the spec raises a down
   * ping's incident before the ping is answered. Resolves once the action is
   * done, or after `waitMs` at the latest — then (alerts away or slow, or the
   * action queued behind an earlier one of its monitor that is failing) the
   * periodic pass finishes the job, as for any other action.
   */
  async runNow(actionId: string, waitMs: number): Promise<void> {
    const deadline = Date.now() + waitMs;
    const [action] = await this.#claim(actionId);
    const sent = action ? this.#process(action, context.active()) : this.#waitUntilDone(actionId, deadline);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
    });
    await Promise.race([sent, timeout]).finally(() => clearTimeout(timer));
  }

  /** Another worker holds the action (or an earlier one of its monitor): wait for its outcome. */
  async #waitUntilDone(actionId: string, deadline: number): Promise<void> {
    while (Date.now() < deadline) {
      if ((await isIncidentActionDone(this.#em(), actionId)) !== false) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Leases due actions (the oldest pending of each monitor), or only `onlyId` if it is one of them. */
  async #claim(onlyId: string | null): Promise<ClaimedIncidentAction[]> {
    return claimIncidentActions(this.#em(), { leaseSeconds: LEASE_SECONDS, onlyId, limit: BATCH });
  }

  /**
   * In a span of its own (its RPCs and log lines join it): only claimed actions, work found, make traces.
   * A ping's own action (runNow) is part of the ping's trace.
   */
  #process(action: ClaimedIncidentAction, parent?: ReturnType<typeof context.active>): Promise<void> {
    return inBackgroundSpan(
      `incident ${action.kind}`,
      {
        attributes: { "pulsegate.monitor.id": action.monitor_id, "pulsegate.incident.action.id": action.id },
        parent,
      },
      () => this.#processInSpan(action),
    );
  }

  async #processInSpan(action: ClaimedIncidentAction): Promise<void> {
    try {
      if (action.kind === "raise") await this.#raise(action);
      else await this.#resolve(action);
    } catch (error) {
      const backoff = exponentialDelay(action.attempts, BACKOFF_SECONDS);
      this.#log.warn(
        { err: error, actionId: action.id, kind: action.kind, backoff },
        "incident action failed; will retry",
      );
      await retryIncidentAction(this.#em(), action.id, {
        delaySeconds: backoff,
        error: error instanceof Error ? error.message.slice(0, 500) : String(error),
      }).catch(() => undefined); // The lease runs out by itself.
    }
  }

  async #raise(action: ClaimedIncidentAction): Promise<void> {
    const raised = await this.#alerts.raise({
      actionId: action.id,
      teamId: action.team_id,
      monitorId: action.monitor_id,
      title: action.title,
      description: action.description,
      severity: action.severity,
      metadata: action.metadata,
      groupKey: action.group_key,
      alertQuotaMonthly: action.alert_quota_monthly,
      reopenWindowSeconds: action.reopen_window_seconds,
      repeatIntervalSeconds: action.repeat_interval_seconds,
    });
    if (raised.kind === "refused") return this.#setAside(action, raised.reason);
    if (raised.kind === "not_raised") {
      // Quota exhausted (or an outcome a monitor cannot cause): nothing to retry.
      this.#log.warn({ actionId: action.id, outcome: raised.outcome }, "incident not raised by alerts");
      await this.#complete(action, raised.outcome, []);
      return;
    }
    await this.#complete(action, raised.outcome, [raised.alertId]);
  }

  async #resolve(action: ClaimedIncidentAction): Promise<void> {
    const ids = await selectOpenAlertIds(this.#em(), action.monitor_id);
    for (const id of ids) {
      const resolved = await this.#alerts.resolve(id);
      if (resolved !== "resolved") return this.#setAside(action, resolved.reason);
    }
    await this.#complete(action, "resolved", ids);
  }

  /**
   * Alerts refused the action itself: retrying cannot help, and would hold back the monitor's
   * later actions. Marked done (outcome `invalid`, the reason in last_error), counted, logged once.
   */
  async #setAside(action: ClaimedIncidentAction, reason: string): Promise<void> {
    try {
      // Counted and logged once: not when another replica finished it meanwhile.
      if (!(await setAsideIncidentAction(this.#em(), action.id, reason))) return;
    } catch {
      return; // The lease runs out and it is sent, and refused, again.
    }
    reportSetAside(
      this.#log,
      "incident_actions",
      { actionId: action.id, monitorId: action.monitor_id, kind: action.kind },
      reason,
    );
  }

  /** Marks the action done and keeps the monitor's list of open incident alerts in step. */
  async #complete(action: ClaimedIncidentAction, outcome: string, alertIds: string[]): Promise<void> {
    return completeIncidentAction(this.#em(), action, outcome, alertIds);
  }

  #em(): EntityManager {
    return this.#orm.em.fork();
  }
}
