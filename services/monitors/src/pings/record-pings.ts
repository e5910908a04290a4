import { randomUUID } from "node:crypto";
import type { EntityManager, Orm } from "@pulsegate/db";
import type { Logger } from "@pulsegate/logger";
import { monitorsErrors } from "../errors.ts";
import type { LastKnownMonitors } from "../monitors/last-known-monitors.ts";
import type { MonitorView } from "../monitors/monitor-row.ts";
import { isDatabaseUnavailable, withTimeout } from "../runtime/database-unavailable.ts";
import type { PingSpool } from "../spool/ping-spool.ts";
import { applyPing, refundHeartbeat, reserveHeartbeats } from "./apply-ping.ts";
import type { PingItem } from "./ping-item.ts";

export type RecordInput = Omit<PingItem, "pingId" | "receivedAt"> & { receivedAt: Date | null };

export type RecordResult =
  | { outcome: "recorded" | "spooled"; monitor: MonitorView | null; pingId: string }
  | { outcome: "paused"; monitor: MonitorView }
  | { outcome: "quota_exhausted" | "monitor_not_found" };

/**
 * The ping path: each ping is written to PostgreSQL, or — when the database
 * does not answer in time — appended to the spool and answered from the last
 * known state. Once one ping is spooled, the following ones are spooled too
 * until the drain worker has emptied the spool, so pings are applied in the
 * order they arrived. With neither store the call fails UNAVAILABLE (503).
 */
export class PingRecorder {
  readonly #orm: Orm;
  readonly #spool: PingSpool;
  readonly #lastKnown: LastKnownMonitors;
  readonly #log: Logger;
  readonly #dbAttemptTimeoutMs: number;
  readonly #onIncident: () => void;
  readonly #now: () => Date;
  #spooling = false;
  #pendingAppends = 0;

  constructor(options: {
    orm: Orm;
    spool: PingSpool;
    lastKnown: LastKnownMonitors;
    log: Logger;
    dbAttemptTimeoutMs: number;
    onIncident: () => void;
    now?: () => Date;
  }) {
    this.#orm = options.orm;
    this.#spool = options.spool;
    this.#lastKnown = options.lastKnown;
    this.#log = options.log;
    this.#dbAttemptTimeoutMs = options.dbAttemptTimeoutMs;
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
   * Results in the order of `inputs`; pings of one monitor are applied in
   * order, monitors in parallel. The heartbeat quota of a team's pings in the
   * batch is reserved in one statement (see reserveHeartbeats).
   */
  async record(inputs: RecordInput[]): Promise<RecordResult[]> {
    const items = inputs.map(
      (input): PingItem => ({ ...input, pingId: randomUUID(), receivedAt: input.receivedAt ?? this.#now() }),
    );
    const reserved = this.#spooling ? new Set<number>() : await this.#reserveBatch(items);
    const results = new Array<RecordResult>(items.length);
    const byMonitor = new Map<string, number[]>();
    items.forEach((item, index) => {
      const list = byMonitor.get(item.monitorId) ?? [];
      list.push(index);
      byMonitor.set(item.monitorId, list);
    });
    await Promise.all(
      [...byMonitor.values()].map(async (indexes) => {
        for (const index of indexes) {
          results[index] = await this.#recordOne(items[index] as PingItem, reserved.has(index));
        }
      }),
    );
    return results;
  }

  /**
   * The indexes whose quota is reserved: each team with more than one ping in
   * the batch, when its quota takes them all. The others reserve one by one.
   * A database that does not answer in time reserves nothing here; the pings
   * then take their own path (and the spool).
   */
  async #reserveBatch(items: PingItem[]): Promise<Set<number>> {
    const byTeam = new Map<string, number[]>();
    items.forEach((item, index) => {
      const key = `${item.teamId}\u0000${item.receivedAt.getUTCFullYear()}-${item.receivedAt.getUTCMonth()}`;
      byTeam.set(key, [...(byTeam.get(key) ?? []), index]);
    });
    const reserved = new Set<number>();
    await Promise.all(
      [...byTeam.values()]
        .filter((indexes) => indexes.length > 1)
        .map(async (indexes) => {
          const first = items[indexes[0] as number] as PingItem;
          try {
            const ok = await withTimeout(
              reserveHeartbeats(
                this.#orm.em.fork() as EntityManager,
                first.teamId,
                first.receivedAt,
                indexes.length,
                first.heartbeatQuotaMonthly,
              ),
              this.#dbAttemptTimeoutMs,
            );
            if (ok) for (const index of indexes) reserved.add(index);
          } catch (error) {
            if (!isDatabaseUnavailable(error)) throw error;
          }
        }),
    );
    return reserved;
  }

  async #recordOne(item: PingItem, reserved: boolean): Promise<RecordResult> {
    if (!this.#spooling) {
      try {
        return await this.#writeDirect(item, reserved);
      } catch (error) {
        if (!isDatabaseUnavailable(error)) throw error;
        // Without a spool there is no backlog to queue behind: the next ping tries the database again.
        if (!this.#spool.configured) throw monitorsErrors.pingNotStored();
        this.startSpooling(error instanceof Error ? error.message : String(error));
      }
    }
    // The drain counts a spooled ping itself: give a batch reservation back (best effort; the
    // database is likely away, and then the count stays one high).
    if (reserved) void refundHeartbeat(this.#orm.em.fork() as EntityManager, item).catch(() => undefined);
    return this.#spoolOne(item);
  }

  async #writeDirect(item: PingItem, reserved = false): Promise<RecordResult> {
    const em = this.#orm.em.fork() as EntityManager;
    const result = await withTimeout(
      applyPing(em, item, { spooled: false, now: this.#now(), reserved }),
      this.#dbAttemptTimeoutMs,
    );
    switch (result.outcome) {
      case "recorded":
      case "duplicate":
        if (result.outcome === "recorded" && result.incident) this.#onIncident();
        return { outcome: "recorded", monitor: this.#lastKnown.remember(result.monitor), pingId: item.pingId };
      case "paused":
        return { outcome: "paused", monitor: this.#lastKnown.remember(result.monitor) };
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
        return await this.#writeDirect(item);
      } catch (databaseError) {
        if (!isDatabaseUnavailable(databaseError)) throw databaseError;
        this.#log.error({ err: spoolError }, "ping could be stored neither in the database nor in the spool");
        throw monitorsErrors.pingNotStored();
      }
    }
    this.#pendingAppends--;
    // What the monitor will look like once the drain applies this ping.
    const predicted: MonitorView | null = known
      ? {
          ...known,
          status: item.status,
          monitoringActive: true,
          lastPingAt: item.receivedAt,
          lastPingStatus: item.status,
          lastReason: item.reason,
        }
      : null;
    if (predicted) this.#lastKnown.remember(predicted);
    return { outcome: "spooled", monitor: predicted, pingId: item.pingId };
  }
}
