import { context, metrics, ROOT_CONTEXT } from "@opentelemetry/api";
import type { Logger } from "@pulsegate/logger";
import { counterOf } from "@pulsegate/telemetry/instruments";
import { isTransientError } from "@pulsegate/transient-error";

const failures = counterOf(metrics.getMeter("pulsegate-periodic"), "pulsegate.periodic.failures");

export type PeriodicOptions = {
  /** Names the task in logs and in pulsegate.periodic.failures. */
  name: string;
  intervalMs: number;
  /** The first run after start; the interval when unset. */
  firstRunDelayMs?: number;
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
  /** Runs the task soon instead of at the next period (once more right after a run in progress). */
  kick: () => void;
  /** Stops scheduling, aborts `signal` and waits for a run in progress. */
  stop: () => Promise<void>;
};

/**
 * The one background loop of the services (sweeps, outbox pollers, retention,
 * reminders, directory refreshes): runs `task` every `intervalMs` after the
 * previous run ends, never two at once. A failed run is logged (an unreachable
 * database only at debug level: the outage is reported elsewhere), counted, and
 * followed by the next after the interval. Un-started when returned.
 */
export function periodic(options: PeriodicOptions): Periodic {
  const { name, intervalMs, log, task } = options;
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let started = false;
  let kicked = false;

  const schedule = (delayMs: number) => {
    if (abort.signal.aborted) return;
    clearTimeout(timer);
    // In no trace: a kick from inside a span (a sweep that found work) must not make every later
    // run, and the statements of every idle pass, part of that trace.
    timer = setTimeout(() => context.with(ROOT_CONTEXT, run), delayMs);
    timer.unref();
  };

  function run(): void {
    if (abort.signal.aborted) return;
    if (running) {
      kicked = true;
      return;
    }
    kicked = false;
    running = task(abort.signal).then(
      (more) => {
        running = undefined;
        schedule(more || kicked ? 0 : intervalMs);
      },
      (error: unknown) => {
        running = undefined;
        failures.add(1, { task: name });
        if (isTransientError(error)) log.debug({ err: error, task: name }, "task skipped: database unavailable");
        else log.error({ err: error, task: name }, "periodic task failed");
        schedule(intervalMs);
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
      if (started) schedule(0);
    },
    stop: async () => {
      abort.abort();
      clearTimeout(timer);
      await running;
    },
  };
}
