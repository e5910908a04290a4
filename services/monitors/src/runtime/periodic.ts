import type { Logger } from "@pulsegate/logger";
import { context, ROOT_CONTEXT } from "@pulsegate/telemetry";
import { isTransientError } from "@pulsegate/transient-error";

export type Periodic = {
  /** Runs the task soon, without waiting for the next period. */
  kick: () => void;
  /** Stops scheduling and waits for a run in progress. */
  stop: () => Promise<void>;
};

/**
 * Runs `task` every `intervalMs`, never two at once. A task that returns
 * true has more to do and runs again at once. Failures are logged (an
 * unreachable database only at debug level: the outage is reported elsewhere)
 * and retried at the next period.
 */
export function startPeriodic(name: string, intervalMs: number, task: () => Promise<boolean>, log: Logger): Periodic {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  let kicked = false;

  const schedule = (delay: number) => {
    if (stopped) return;
    clearTimeout(timer);
    // In no trace: a kick from inside a span (a sweep that found work) must not make every later
    // run, and the statements of every idle pass, part of that trace.
    timer = setTimeout(() => context.with(ROOT_CONTEXT, run), delay);
    timer.unref();
  };

  function run(): void {
    if (stopped) return;
    if (running) {
      kicked = true;
      return;
    }
    kicked = false;
    running = task().then(
      (more) => {
        running = undefined;
        schedule(more || kicked ? 0 : intervalMs);
      },
      (error: unknown) => {
        running = undefined;
        if (isTransientError(error)) log.debug({ err: error, task: name }, "task skipped: database unavailable");
        else log.error({ err: error, task: name }, "periodic task failed");
        schedule(intervalMs);
      },
    );
  }

  schedule(intervalMs);
  return {
    kick: () => schedule(0),
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
