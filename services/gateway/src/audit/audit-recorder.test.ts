import type { auth } from "@pulsegate/proto";
import { createLogger } from "@pulsegate/runtime/logger";
import { describe, expect, it, vi } from "vitest";
import type { Peers } from "../peers/connect-peers.ts";
import { createAuditIds, createAuditRecorder } from "./audit-recorder.ts";

const log = createLogger("audit-test", "silent");

/** Peers whose auth.recordAuditEntries is `record` (callUnary calls it with a callback). */
function peersRecording(record: (entries: auth.AuditEntry[]) => Error | undefined): Peers {
  const recordAuditEntries = (
    request: auth.RecordAuditEntriesRequest,
    _metadata: unknown,
    _options: unknown,
    callback: (error: Error | null, response: auth.RecordAuditEntriesResponse) => void,
  ) => {
    const error = record(request.entries);
    setImmediate(() => callback(error ?? null, {}));
  };
  return { auth: { recordAuditEntries, deadlineMs: 1_000 } } as unknown as Peers;
}

const entry = (action: string): Omit<auth.AuditEntry, "id"> => ({
  teamId: "team_1",
  at: new Date(),
  actorKind: 1,
  actorId: "",
  actorName: "",
  actorEmail: "",
  action,
  targetKind: "team",
  targetId: "team_1",
  detailsJson: "{}",
});

describe("audit ids", () => {
  it("sort in the order they were made, within one millisecond too", () => {
    const next = createAuditIds(() => 1_700_000_000_000);
    const ids = Array.from({ length: 50 }, next);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(50);
  });
});

describe("the audit recorder", () => {
  it("sends entries in order, batched, and retries until auth takes them", async () => {
    const stored: string[] = [];
    let failures = 2;
    const recorder = createAuditRecorder(
      peersRecording((entries) => {
        if (failures-- > 0) return new Error("auth away");
        stored.push(...entries.map((e) => e.action));
        return undefined;
      }),
      log,
      { retryMs: 5 },
    );
    for (const action of ["a", "b", "c"]) await recorder.record(entry(action));
    await recorder.flush(2_000);
    expect(stored).toEqual(["a", "b", "c"]);
    expect(recorder.pending()).toBe(0);
  });

  it("makes a recording wait for room when the queue is full, and drops nothing", async () => {
    let allow = false;
    let refusals = 0;
    const stored: string[] = [];
    const recorder = createAuditRecorder(
      peersRecording((entries) => {
        if (!allow) {
          refusals++;
          return new Error("auth away");
        }
        stored.push(...entries.map((e) => e.action));
        return undefined;
      }),
      log,
      { maxQueue: 2, maxBatch: 1, retryMs: 5 },
    );
    await recorder.record(entry("a"));
    await recorder.record(entry("b"));
    let thirdQueued = false;
    const third = recorder.record(entry("c")).then(() => {
      thirdQueued = true;
    });
    // Awaited, not slept: auth refused several more sends while the third waited, and it still waits.
    const refusedBefore = refusals;
    await vi.waitFor(() => expect(refusals).toBeGreaterThanOrEqual(refusedBefore + 5), { timeout: 2_000 });
    expect(thirdQueued).toBe(false);
    allow = true;
    await third;
    await recorder.flush(2_000);
    expect(stored).toEqual(["a", "b", "c"]);
  });
});
