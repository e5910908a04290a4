import { randomUUIDv7 } from "node:crypto";
import { checkStoredText, type TextProblem } from "@pulsegate/contract/text";
import type { PgPool } from "@pulsegate/db";
import type { Logger } from "@pulsegate/runtime/logger";
import { isTransientError } from "@pulsegate/runtime/transient-error";
import { monitorsErrors } from "../errors.ts";
import type { LastKnownMonitors } from "../monitors/last-known-monitors.ts";
import type { MonitorView } from "../monitors/monitor-row.ts";
import type { PingSpool } from "../spool/ping-spool.ts";
import { type ApplyResult, applyPingBatch } from "./apply-ping-batch.ts";
import { monitorAfterPing } from "./monitor-after-ping.ts";
import type { PingAnswer } from "./ping-idempotency-keys.ts";
import type { PingItem } from "./ping-item.ts";
import { pingTransition } from "./ping-transition.ts";
import { type PreviewResult, previewPings } from "./preview-pings.ts";

export type RecordInput = Omit<PingItem, "pingId" | "receivedAt"> & { receivedAt: Date | null };

/** A ping whose text cannot be stored: refused alone, its batch-mates are still applied. */
export type InvalidResult = { outcome: "invalid"; violations: TextProblem[] };

export type RecordResult =
  | { outcome: "recorded" | "spooled"; monitor: MonitorView | null; pingId: string }
  | { outcome: "paused"; monitor: MonitorView }
  | { outcome: "quota_exhausted" | "monitor_not_found" }
  | InvalidResult
  /** This ping alone failed to be written (not an outage): nothing stored, the caller may retry. */
  | { outcome: "not_stored" }
  /** The answer of its Idempotency-Key's first ping, given again: nothing was stored now. */
  | { outcome: "replayed"; answer: PingAnswer }
  | { outcome: "idempotency_key_reused" };

/**
 * The ping path. A RecordPing batch is written to PostgreSQL in one
 * transaction (applyPingBatch); when the database cannot be reached (a
 * connection error, not a wait for a free connection) the batch goes to the
 * spool and is answered from the last known state instead. Once one ping is
 * spooled, the following ones are spooled too until the drain worker has
 * emptied the spool, so pings are applied in the order they arrived. With
 * neither store the call fails UNAVAILABLE (503).
 */
export class PingRecorder {
  readonly #pool: PgPool;
  readonly #spool: PingSpool;
  readonly #lastKnown: LastKnownMonitors;
  readonly #log: Logger;
  readonly #onIncident: (actionId: string) => Promise<void>;
  readonly #now: () => Date;
  #spooling = false;
  #pendingAppends = 0;

  constructor(options: {
    pool: PgPool;
    spool: PingSpool;
    lastKnown: LastKnownMonitors;
    log: Logger;
    /**
     * Sends the incident action a ping wrote, before the ping is answered (the
     * spec raises a down ping's incident at once); resolves when it was sent,
     * or when the outbox worker has to take over (alerts away, too slow).
     */
    onIncident: (actionId: string) => Promise<void>;
    now?: () => Date;
  }) {
    this.#pool = options.pool;
    this.#spool = options.spool;
    this.#lastKnown = options.lastKnown;
    this.#log = options.log;
    this.#onIncident = options.onIncident;
    this.#now = options.now ?? (() => new Date());
  }

  /** True while new pings go to the spool, behind the ones already there. */
  get spooling(): boolean {
    return this.#spooling;
  }

  startSpooling(reason: string): void {
    if (this.#spooling) return;
    this.#spooling = true;
    this.#log.warn({ reason }, "pings go to the spool until it is drained");
  }

  /** Called by the drain worker when it found the spool empty; false while an append is still in flight. */
  stopSpoolingIfIdle(): boolean {
    if (!this.#spooling) return true;
    if (this.#pendingAppends > 0) return false;
    this.#spooling = false;
    this.#log.info("spool drained: pings are written to the database again");
    return true;
  }

  /**
   * Results in the order of `inputs`; pings of one monitor are applied in that order. A ping's key is
   * time-ordered (UUIDv7), so the unique index on the keys takes each new one at its right edge.
   */
  record(inputs: RecordInput[]): Promise<RecordResult[]> {
    return this.#answerStorable(inputs, randomUUIDv7, (items) => this.#write(items));
  }

  /**
   * What record() would do, written nowhere (a dry run); invalid items are
   * answered as record() answers them. Needs the database: no spool for this.
   */
  preview(inputs: RecordInput[]): Promise<(PreviewResult | InvalidResult)[]> {
    return this.#answerStorable(
      inputs,
      () => "",
      (items) => previewPings(this.#pool, items),
    );
  }

  /** Answers the items that cannot be stored as invalid and the others with `handle`, in the order of `inputs`. */
  async #answerStorable<R>(
    inputs: RecordInput[],
    pingId: () => string,
    handle: (items: PingItem[]) => Promise<R[]>,
  ): Promise<(R | InvalidResult)[]> {
    const results = new Array<R | InvalidResult>(inputs.length);
    const accepted: number[] = [];
    const items: PingItem[] = [];
    inputs.forEach((input, index) => {
      const violations = unstorableText(input);
      if (violations.length > 0) {
        results[index] = { outcome: "invalid", violations };
        return;
      }
      accepted.push(index);
      items.push({ ...input, pingId: pingId(), receivedAt: input.receivedAt ?? this.#now() });
    });
    (await handle(items)).forEach((result, position) => {
      results[accepted[position] as number] = result;
    });
    return results;
  }

  async #write(items: PingItem[]): Promise<RecordResult[]> {
    if (items.length === 0) return [];
    if (!this.#spooling) {
      try {
        const applied = await applyPingBatch(this.#pool, items, { spooled: false, now: this.#now() });
        await this.#sendIncidents(items, applied);
        return applied.map((result, index) => this.#answer(result, items[index] as PingItem));
      } catch (error) {
        if (!isTransientError(error)) return this.#writeOneByOne(items, error);
        // Without a spool there is no backlog to queue behind: the next batch tries the database again.
        if (!this.#spool.configured) throw monitorsErrors.pingNotStored();
        this.startSpooling(error instanceof Error ? error.message : String(error));
      }
    }
    const results: RecordResult[] = [];
    for (const item of items) results.push(await this.#spoolOne(item));
    return results;
  }

  /**
   * A batch failed for a reason other than an unreachable database: one item
   * must not take its batch-mates (other teams' pings) down with it, so each
   * is written alone; one that still fails is reported not stored.
   */
  async #writeOneByOne(items: PingItem[], cause: unknown): Promise<RecordResult[]> {
    if (items.length === 1) {
      this.#log.error({ err: cause }, "a ping could not be written");
      return [{ outcome: "not_stored" }];
    }
    this.#log.warn({ err: cause, pings: items.length }, "ping batch failed; writing its pings one by one");
    const results: RecordResult[] = [];
    for (const item of items) results.push(...(await this.#write([item])));
    return results;
  }

  /** The actions the batch wrote, sent before it is answered: in order per monitor, monitors side by side. */
  async #sendIncidents(items: PingItem[], applied: ApplyResult[]): Promise<void> {
    const byMonitor = new Map<string, string[]>();
    applied.forEach((result, index) => {
      if (result.outcome !== "recorded" || result.incidentActionId === null) return;
      const monitorId = (items[index] as PingItem).monitorId;
      byMonitor.set(monitorId, [...(byMonitor.get(monitorId) ?? []), result.incidentActionId]);
    });
    await Promise.all(
      [...byMonitor.values()].map(async (actionIds) => {
        for (const actionId of actionIds) {
          // Committed already: whatever happens to the send, the ping is not written again.
          await this.#onIncident(actionId).catch((error: unknown) => {
            this.#log.warn({ err: error }, "incident action not sent at once; the outbox worker will");
          });
        }
      }),
    );
  }

  #answer(result: ApplyResult, item: PingItem): RecordResult {
    switch (result.outcome) {
      case "recorded":
      case "duplicate":
        return { outcome: "recorded", monitor: this.#lastKnown.remember(result.monitor), pingId: item.pingId };
      case "paused":
        return { outcome: "paused", monitor: this.#lastKnown.remember(result.monitor) };
      case "replayed":
        return result;
      default:
        return { outcome: result.outcome };
    }
  }

  async #spoolOne(item: PingItem): Promise<RecordResult> {
    const known = this.#lastKnown.byId(item.monitorId);
    if (known && known.teamId !== item.teamId) return { outcome: "monitor_not_found" };
    if (known?.status === "paused") return { outcome: "paused", monitor: known };
    this.#pendingAppends++;
    try {
      await this.#spool.append(item);
    } catch (spoolError) {
      this.#pendingAppends--;
      // The database may be back while Redis is not: one direct attempt before giving up.
      try {
        const [applied] = await applyPingBatch(this.#pool, [item], { spooled: false, now: this.#now() });
        await this.#sendIncidents([item], applied ? [applied] : []);
        return applied ? this.#answer(applied, item) : { outcome: "not_stored" };
      } catch (databaseError) {
        if (!isTransientError(databaseError)) throw databaseError;
        this.#log.error({ err: spoolError }, "ping could be stored neither in the database nor in the spool");
        throw monitorsErrors.pingNotStored();
      }
    }
    this.#pendingAppends--;
    // What the monitor will look like once the drain applies this ping: the transition the drain will apply.
    const predicted = known ? predictedAfter(known, item) : null;
    if (predicted) this.#lastKnown.replace(predicted);
    return { outcome: "spooled", monitor: predicted, pingId: item.pingId };
  }
}

/** The monitor once `item` is applied to `known`, by the rule the write applies (ping-transition.ts). */
function predictedAfter(known: MonitorView, item: PingItem): MonitorView {
  const transition = pingTransition(known, { status: item.status, reason: item.reason, receivedAt: item.receivedAt });
  // Paused is answered before spooling; a ping older than the last applied one moves nothing.
  return transition.apply ? monitorAfterPing(known, item, transition, known.alertQuotaMonthly) : known;
}

/** What makes a ping unstorable (the stored-text backstop, checkStoredText), or nothing. */
function unstorableText(input: RecordInput): TextProblem[] {
  const checked = checkStoredText(
    { reason: input.reason ?? undefined, group_key: input.groupKey ?? undefined },
    input.metadataJson,
  );
  return "problems" in checked ? checked.problems : [];
}
