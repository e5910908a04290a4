import { context, metrics, ROOT_CONTEXT } from "@opentelemetry/api";
import { exponentialDelay } from "@pulsegate/runtime/backoff";
import type { Logger } from "@pulsegate/runtime/logger";
import { isTransientError } from "@pulsegate/runtime/transient-error";
import { counterOf } from "@pulsegate/telemetry/instruments";

const failures = counterOf(metrics.getMeter("pulsegate-periodic"), "pulsegate.periodic.failures");

export type PeriodicOptions = {
  /** Names the task in logs and in pulsegate.periodic.failures. */
  name: string;
  intervalMs: number;
  /** The first run after start; the interval when unset. */
  firstRunDelayMs?: number;
  /**
   * How long a kick waits before the run it asks for (0 when unset), so the kicks of many
   * commits close together make one run, not a run each.
   */
  settleMs?: number;
  /**
   * Failed runs in a row wait longer, doubling from the interval up to this (the interval when
   * unset: no doubling).
   */
  maxFailureDelayMs?: number;
  log: Logger;
  /**
   * One run; true when it has more to do (a cap stopped it), so the next runs
   * at once. `signal` is aborted by `stop`, for a long run to end between batches.
   */
  task: (signal: AbortSignal) => Promise<boolean | undefined>;
};

export type Periodic = {
  /** Schedules the first run; only once, and never after stop. */
  start: () => void;
  /** Runs the task within `settleMs` instead of at the next period (once more right after a run in progress). */
  kick: () => void;
  /** Stops scheduling, aborts `signal` and waits for a run in progress. */
  stop: () => Promise<void>;
};

/**
 * A background loop, the one the services' periodic jobs share (sweeps, outbox
 * pollers, the notification dispatcher, retention, reminders, directory refreshes;
 * not the change listeners, which keep their own connection checks): runs `task` every
 * `intervalMs` after the previous run ends, never two at once; a kick brings the
 * next run forward. A failed run is logged (an unreachable database only at
 * debug level: the outage is reported elsewhere), counted, and followed by the
 * next after the interval (or longer: `maxFailureDelayMs`). Un-started when returned.
 */
export function periodic(options: PeriodicOptions): Periodic {
  const { name, intervalMs, log, task } = options;
  const settleMs = options.settleMs ?? 0;
  const retry = { base: intervalMs, max: Math.max(intervalMs, options.maxFailureDelayMs ?? intervalMs) };
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  /** When the scheduled run is due (ms since the epoch). */
  let due = 0;
  let running: Promise<void> | undefined;
  let started = false;
  let kicked = false;
  let failuresInRow = 0;

  const schedule = (delayMs: number) => {
    if (abort.signal.aborted) return;
    clearTimeout(timer);
    due = Date.now() + delayMs;
    // In no trace: a kick from inside a span (a sweep that found work) must not make every later
    // run, and the statements of every idle pass, part of that trace.
    timer = setTimeout(() => context.with(ROOT_CONTEXT, run), delayMs);
    timer.unref();
  };

  function run(): void {
    // Timers are only set while no run is in progress: never two at once.
    if (abort.signal.aborted) return;
    kicked = false;
    running = task(abort.signal).then(
      (more) => {
        running = undefined;
        failuresInRow = 0;
        schedule(more ? 0 : kicked ? settleMs : intervalMs);
      },
      (error: unknown) => {
        running = undefined;
        failuresInRow++;
        failures.add(1, { task: name });
        if (isTransientError(error)) log.debug({ err: error, task: name }, "task skipped: database unavailable");
        else log.error({ err: error, task: name }, "periodic task failed");
        schedule(exponentialDelay(failuresInRow, retry));
      },
    );
  }

  return {
    start: () => {
      if (started) return;
      started = true;
      schedule(options.firstRunDelayMs ?? intervalMs);
    },
    kick: () => {
      if (!started) return;
      if (running) kicked = true;
      else if (due > Date.now() + settleMs) schedule(settleMs);
    },
    stop: async () => {
      abort.abort();
      clearTimeout(timer);
      await running;
    },
  };
}
