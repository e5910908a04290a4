import type { Logger } from "@pulsegate/logger";

export type RetentionScheduleOptions = {
  log: Logger;
  intervalMs: number;
  /** The first run, shortly after start rather than a whole interval later. */
  firstRunDelayMs: number;
  /** One run; true when a cap stopped it with rows left. `signal` aborts between batches on stop. */
  run: (signal: AbortSignal) => Promise<boolean>;
};

/**
 * Runs retention in the background of the service process, like the
 * dispatcher: `start` schedules, `stop` aborts the run in progress between
 * two batches and waits for it. Never two runs at once; a run that hit its
 * cap is followed at once by the next, a failed one waits for the interval.
 */
export class RetentionSchedule {
  readonly #options: RetentionScheduleOptions;
  readonly #abort = new AbortController();
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;

  constructor(options: RetentionScheduleOptions) {
    this.#options = options;
  }

  start(): void {
    if (this.#timer || this.#running || this.#abort.signal.aborted) return;
    this.#schedule(this.#options.firstRunDelayMs);
  }

  async stop(): Promise<void> {
    this.#abort.abort();
    clearTimeout(this.#timer);
    await this.#running;
  }

  #schedule(delayMs: number): void {
    if (this.#abort.signal.aborted) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#running = this.#runOnce().finally(() => {
        this.#running = undefined;
      });
    }, delayMs);
    this.#timer.unref();
  }

  async #runOnce(): Promise<void> {
    let more = false;
    try {
      more = await this.#options.run(this.#abort.signal);
    } catch (error) {
      this.#options.log.error({ err: error }, "retention run failed");
    }
    this.#schedule(more ? 0 : this.#options.intervalMs);
  }
}
