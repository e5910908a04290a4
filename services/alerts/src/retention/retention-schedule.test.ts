import { createLogger } from "@pulsegate/logger";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RetentionSchedule } from "./retention-schedule.ts";

const log = createLogger("test", "silent");

// A fake clock: what must not happen yet is checked after advancing time past it, not after a sleep.
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("retention schedule", () => {
  it("runs first after the start delay, then every interval, at once again while a run hit its cap", async () => {
    const started: number[] = [];
    let capped = 2;
    const schedule = new RetentionSchedule({
      log,
      intervalMs: 10_000,
      firstRunDelayMs: 20,
      run: async () => {
        started.push(Date.now());
        return capped-- > 0;
      },
    });
    const t0 = Date.now();
    schedule.start();
    await vi.advanceTimersByTimeAsync(19);
    expect(started).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(started.map((at) => at - t0)).toEqual([20]);
    // Two follow-ups of capped runs at once (a zero delay, which timers may round up to 1 ms); then
    // nothing until an interval after the last.
    await vi.advanceTimersByTimeAsync(2);
    expect(started).toHaveLength(3);
    const last = started[2] ?? 0;
    expect(last - t0).toBeLessThanOrEqual(22);
    await vi.advanceTimersByTimeAsync(last + 9_999 - Date.now());
    expect(started).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(started).toEqual([...started.slice(0, 3), last + 10_000]);
    await schedule.stop();
  });

  it("aborts a run in progress on stop and waits for it, and never runs again", async () => {
    let runs = 0;
    let aborted = false;
    const schedule = new RetentionSchedule({
      log,
      intervalMs: 5,
      firstRunDelayMs: 0,
      run: async (signal) => {
        runs++;
        await new Promise((done) => signal.addEventListener("abort", done, { once: true }));
        aborted = true;
        return true;
      },
    });
    schedule.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toBe(1);
    await schedule.stop();
    expect(aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs).toBe(1);
  });

  it("keeps going after a failed run, every interval", async () => {
    let runs = 0;
    const schedule = new RetentionSchedule({
      log,
      intervalMs: 10,
      firstRunDelayMs: 0,
      run: async () => {
        runs++;
        throw new Error("database away");
      },
    });
    schedule.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(9);
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(21);
    expect(runs).toBe(4);
    await schedule.stop();
  });
});
