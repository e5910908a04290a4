import { randomBytes } from "node:crypto";
import { AUDIT_LIMITS } from "@pulsegate/contract/limits";
import { callUnary, refusalOf, reportSetAside } from "@pulsegate/grpc";
import type { auth } from "@pulsegate/proto";
import type { Logger } from "@pulsegate/runtime/logger";
import type { Peers } from "../peers/connect-peers.ts";

export type AuditRecorderOptions = {
  /** Entries waiting at most; past that, recording waits for room (nothing is dropped). */
  maxQueue?: number;
  /** Entries per RecordAuditEntries call (default: as many as auth takes). */
  maxBatch?: number;
  /** Wait before sending again after a failed call. */
  retryMs?: number;
};

/**
 * Ids that sort as they were made in this process (time, then a sequence), so entries of one
 * millisecond are still listed in the order of their actions (auth orders by time, then id).
 */
export function createAuditIds(now: () => number = Date.now): () => string {
  let sequence = 0;
  return () => {
    sequence = (sequence + 1) % 0x1000000;
    const time = now().toString(16).padStart(12, "0");
    return `aud_${time}${sequence.toString(16).padStart(6, "0")}${randomBytes(6).toString("hex")}`;
  };
}

export type AuditRecorder = {
  /** Queues an entry (id chosen here); resolves once it is queued, at once unless the queue is full. */
  record: (entry: Omit<auth.AuditEntry, "id">) => Promise<void>;
  /** Entries not yet stored. */
  pending: () => number;
  /** Sends what is queued, giving up after `timeoutMs` (shutdown). */
  flush: (timeoutMs: number) => Promise<void>;
};

/**
 * Sends audit entries to auth after the actions they describe succeeded, off the request path:
 * one call in flight, carrying everything queued meanwhile, retried until auth takes it; an entry
 * auth refuses as invalid is set aside (counted and logged once) instead of holding the rest. Entries
 * carry ids chosen here, so a batch resent after a lost answer is stored once. The queue is
 * bounded: when auth has been away long enough to fill it, an admin answer waits for room rather
 * than an entry being dropped. Entries live in memory only: a process that dies with some queued
 * loses those (a clean shutdown sends them first).
 */
export function createAuditRecorder(peers: Peers, log: Logger, options: AuditRecorderOptions = {}): AuditRecorder {
  const { maxQueue = 10_000, maxBatch = AUDIT_LIMITS.maxBatch, retryMs = 1_000 } = options;
  const nextId = createAuditIds();
  const queue: auth.AuditEntry[] = [];
  const waitingForRoom: (() => void)[] = [];
  let sending: Promise<void> | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let idle: (() => void)[] = [];

  /** Entries at the head of the queue were stored or set aside: they leave it, and room opens. */
  const taken = (count: number) => {
    queue.splice(0, count);
    while (waitingForRoom.length > 0 && queue.length < maxQueue) waitingForRoom.shift()?.();
  };

  /**
   * Sends `entries` (the head of the queue, in order). When auth refuses the call as invalid, one
   * entry is to blame and retrying would refuse it forever, holding every later entry behind it:
   * the batch is halved until the refused entries stand alone, and those are set aside. Any other
   * failure rejects, leaving the entries not yet sent at the head of the queue.
   */
  const deliver = async (entries: auth.AuditEntry[]): Promise<void> => {
    try {
      await callUnary(peers.auth, "recordAuditEntries", { entries });
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal === undefined) throw error;
      if (entries.length > 1) {
        const half = Math.ceil(entries.length / 2);
        await deliver(entries.slice(0, half));
        await deliver(entries.slice(half));
        return;
      }
      const [refused] = entries as [auth.AuditEntry];
      // Ids only: an entry's details never reach the log.
      const { id, teamId, action, targetKind, targetId } = refused;
      reportSetAside(log, "audit", { auditId: id, teamId, action, targetKind, targetId }, refusal);
    }
    taken(entries.length);
  };

  const send = async (): Promise<void> => {
    while (queue.length > 0) {
      try {
        await deliver(queue.slice(0, maxBatch));
      } catch (error) {
        log.warn({ err: error, pending: queue.length }, "audit entries not stored yet; retrying");
        await new Promise<void>((resolve) => {
          retryTimer = setTimeout(resolve, retryMs);
          retryTimer.unref();
        });
      }
    }
  };

  const start = () => {
    if (sending) return;
    sending = send().finally(() => {
      sending = undefined;
      const done = idle;
      idle = [];
      for (const resolve of done) resolve();
      if (queue.length > 0) start();
    });
  };

  return {
    record: async (entry) => {
      while (queue.length >= maxQueue) await new Promise<void>((resolve) => waitingForRoom.push(resolve));
      queue.push({ ...entry, id: nextId() });
      start();
    },
    pending: () => queue.length,
    flush: async (timeoutMs) => {
      if (queue.length === 0) return;
      start();
      let timer: NodeJS.Timeout | undefined;
      const drained = new Promise<boolean>((resolve) => idle.push(() => resolve(true)));
      const timedOut = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      });
      const ok = await Promise.race([drained, timedOut]);
      clearTimeout(timer);
      if (!ok) log.error({ lost: queue.length }, "audit entries could not be stored before shutdown");
    },
  };
}
