import { createLogger } from "@pulsegate/logger";
import { describe, expect, it } from "vitest";
import { RetentionSchedule } from "./retention-schedule.ts";

const log = createLogger("test", "silent");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
    await sleep(10);
    expect(started).toEqual([]);
    await sleep(150);
    // The first run, and two follow-ups of capped runs; then nothing until the interval.
    expect(started).toHaveLength(3);
    expect((started[0] ?? 0) - t0).toBeGreaterThanOrEqual(15);
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
        while (!signal.aborted) await sleep(5);
        aborted = true;
        return true;
      },
    });
    schedule.start();
    await sleep(20);
    await schedule.stop();
    expect(aborted).toBe(true);
    await sleep(30);
    expect(runs).toBe(1);
  });

  it("keeps going after a failed run", async () => {
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
    await sleep(100);
    await schedule.stop();
    expect(runs).toBeGreaterThan(1);
  });
});
