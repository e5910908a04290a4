import { context, createContextKey, ROOT_CONTEXT } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { createLogger } from "@pulsegate/runtime/logger";
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { periodic } from "./periodic.ts";

const log = createLogger("test", "silent");

let runs = 0;
/** A task that counts its runs in `runs` and never has more to do. */
const counting = async () => {
  runs++;
  return false;
};

// A fake clock: what must not happen yet is checked after advancing time past it, not after a sleep.
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("periodic", () => {
  it("does nothing until started, then runs after the first delay and every interval after a run ends", async () => {
    const started: number[] = [];
    const loop = periodic({
      name: "t",
      log,
      intervalMs: 10_000,
      firstRunDelayMs: 20,
      task: async () => {
        started.push(Date.now());
        return false;
      },
    });
    const t0 = Date.now();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(started).toEqual([]);
    loop.start();
    loop.start();
    await vi.advanceTimersByTimeAsync(19);
    expect(started).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(started.map((at) => at - t0)).toEqual([60_020]);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(started).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(started.map((at) => at - t0)).toEqual([60_020, 70_020]);
    await loop.stop();
  });

  it("waits one interval for the first run when no first delay is given", async () => {
    runs = 0;
    const loop = periodic({ name: "t", log, intervalMs: 500, task: counting });
    loop.start();
    await vi.advanceTimersByTimeAsync(499);
    expect(runs).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toBe(1);
    await loop.stop();
  });

  it("runs again at once while a run reports more to do", async () => {
    const started: number[] = [];
    let capped = 2;
    const loop = periodic({
      name: "t",
      log,
      intervalMs: 10_000,
      firstRunDelayMs: 0,
      task: async () => {
        started.push(Date.now());
        return capped-- > 0;
      },
    });
    const t0 = Date.now();
    loop.start();
    // Two follow-ups of capped runs at once (a zero delay, which timers may round up to 1 ms); then
    // nothing until an interval after the last.
    await vi.advanceTimersByTimeAsync(3);
    expect(started).toHaveLength(3);
    const last = started[2] ?? 0;
    expect(last - t0).toBeLessThanOrEqual(3);
    await vi.advanceTimersByTimeAsync(last + 9_999 - Date.now());
    expect(started).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(started).toEqual([...started.slice(0, 3), last + 10_000]);
    await loop.stop();
  });

  it("never runs two at once: a kick during a run runs the task once more right after it", async () => {
    let active = 0;
    let most = 0;
    let runs = 0;
    let finish: (() => void) | undefined;
    const loop = periodic({
      name: "t",
      log,
      intervalMs: 60_000,
      firstRunDelayMs: 0,
      task: async () => {
        runs++;
        active++;
        most = Math.max(most, active);
        await new Promise<void>((done) => {
          finish = done;
        });
        active--;
        return false;
      },
    });
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toBe(1);
    loop.kick();
    loop.kick();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(1);
    finish?.();
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toBe(2);
    finish?.();
    await vi.advanceTimersByTimeAsync(59_998);
    expect(runs).toBe(2);
    expect(most).toBe(1);
    await loop.stop();
  });

  it("a kick before start does nothing; after start it cuts the wait", async () => {
    runs = 0;
    const loop = periodic({ name: "t", log, intervalMs: 60_000, task: counting });
    loop.kick();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(runs).toBe(0);
    loop.start();
    loop.kick();
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toBe(1);
    await loop.stop();
  });

  it("aborts a run in progress on stop and waits for it, and never runs again", async () => {
    let runs = 0;
    let aborted = false;
    const loop = periodic({
      name: "t",
      log,
      intervalMs: 5,
      firstRunDelayMs: 0,
      task: async (signal) => {
        runs++;
        await new Promise((done) => signal.addEventListener("abort", done, { once: true }));
        aborted = true;
        return true;
      },
    });
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toBe(1);
    await loop.stop();
    expect(aborted).toBe(true);
    loop.start();
    loop.kick();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs).toBe(1);
  });

  it("keeps going after a failed run, every interval, logging a transient failure at debug and others as errors", async () => {
    const logged: { level: string; task: unknown }[] = [];
    const spy = {
      debug: (fields: { task: unknown }) => logged.push({ level: "debug", task: fields.task }),
      error: (fields: { task: unknown }) => logged.push({ level: "error", task: fields.task }),
    } as unknown as typeof log;
    let runs = 0;
    const loop = periodic({
      name: "sweep",
      log: spy,
      intervalMs: 10,
      firstRunDelayMs: 0,
      task: async () => {
        runs++;
        if (runs % 2 === 1) throw Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
        throw new TypeError("a bug");
      },
    });
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(9);
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(21);
    expect(runs).toBe(4);
    expect(logged).toEqual([
      { level: "debug", task: "sweep" },
      { level: "error", task: "sweep" },
      { level: "debug", task: "sweep" },
      { level: "error", task: "sweep" },
    ]);
    await loop.stop();
  });

  it("with settleMs, a kick waits that long and the kicks of many commits make one run", async () => {
    const started: number[] = [];
    let finish: (() => void) | undefined;
    const loop = periodic({
      name: "t",
      log,
      intervalMs: 60_000,
      settleMs: 20,
      task: async () => {
        started.push(Date.now());
        await new Promise<void>((done) => {
          finish = done;
        });
        return false;
      },
    });
    const t0 = Date.now();
    loop.start();
    loop.kick();
    await vi.advanceTimersByTimeAsync(10);
    loop.kick();
    await vi.advanceTimersByTimeAsync(9);
    expect(started).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(started.map((at) => at - t0)).toEqual([20]);
    // Kicked during the run: the next waits settleMs after it, not the interval.
    loop.kick();
    loop.kick();
    await vi.advanceTimersByTimeAsync(100);
    finish?.();
    await vi.advanceTimersByTimeAsync(19);
    expect(started).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(started.map((at) => at - t0)).toEqual([20, 140]);
    // Not kicked: the interval.
    finish?.();
    await vi.advanceTimersByTimeAsync(59_999);
    expect(started).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(started.map((at) => at - t0)).toEqual([20, 140, 60_140]);
    finish?.();
    await loop.stop();
  });

  it("with maxFailureDelayMs, failed runs in a row wait twice as long each time up to it; a success resets", async () => {
    const started: number[] = [];
    let failing = 4;
    const loop = periodic({
      name: "t",
      log,
      intervalMs: 100,
      firstRunDelayMs: 0,
      maxFailureDelayMs: 300,
      task: async () => {
        started.push(Date.now());
        if (failing-- > 0) throw new TypeError("a bug");
        return false;
      },
    });
    const t0 = Date.now();
    loop.start();
    await vi.advanceTimersByTimeAsync(1_000);
    // Failed at 0, 100, 300, 600; succeeded at 900; then every interval.
    expect(started.map((at) => at - t0)).toEqual([0, 100, 300, 600, 900, 1_000]);
    await loop.stop();
  });

  it("runs the task outside the trace of whoever kicked it", async () => {
    // Real timers: fake ones do not carry async context. The context manager is the one telemetry
    // registers in the services; without one every context is the root.
    vi.useRealTimers();
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    onTestFinished(() => {
      context.disable();
    });
    const key = createContextKey("caller");
    let ran: (value: unknown) => void = () => undefined;
    const seen = new Promise((resolve) => {
      ran = resolve;
    });
    const loop = periodic({
      name: "t",
      log,
      intervalMs: 60_000,
      task: async () => {
        ran(context.active().getValue(key));
        return false;
      },
    });
    loop.start();
    context.with(ROOT_CONTEXT.setValue(key, "request"), () => {
      expect(context.active().getValue(key)).toBe("request");
      loop.kick();
    });
    expect(await seen).toBeUndefined();
    await loop.stop();
  });
});
