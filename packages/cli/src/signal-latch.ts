/** The signals that ask a process to end: kill's default, Ctrl-C, a closed terminal. */
export const ENDING_SIGNALS = ["SIGTERM", "SIGINT", "SIGHUP"] as const satisfies readonly NodeJS.Signals[];

/**
 * Catches the ending signals from the CLI's first statement on (main.ts), before the commands
 * are even loaded, so that `run` can answer one that arrives at any moment (before its command
 * starts, while its start signal is in flight, while the command runs) with a down ping instead
 * of dying silently. `run` claims it; every other command releases it at once, and a signal then
 * ends the process as it would have without the latch.
 */
export class SignalLatch {
  #received: NodeJS.Signals | null = null;
  #claimed = false;
  readonly #listeners = new Set<(signal: NodeJS.Signals) => void>();
  readonly #handlers = new Map<NodeJS.Signals, () => void>();

  constructor(signals: readonly NodeJS.Signals[] = ENDING_SIGNALS) {
    for (const signal of signals) {
      const handler = () => {
        this.#received ??= signal;
        for (const listener of this.#listeners) listener(signal);
      };
      this.#handlers.set(signal, handler);
      process.on(signal, handler);
    }
  }

  /** The first signal caught, if any. */
  get received(): NodeJS.Signals | null {
    return this.#received;
  }

  /** Calls `listener` for every signal caught from now on; returns what stops it. */
  onSignal(listener: (signal: NodeJS.Signals) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The caller answers signals itself: releasing later no longer ends the process for one caught. */
  claim(): this {
    this.#claimed = true;
    return this;
  }

  /**
   * Gives the signals back to Node's default (ending the process). Unclaimed, a signal already
   * caught is raised again now, so the process ends by it as it would have. Idempotent.
   */
  release(): void {
    for (const [signal, handler] of this.#handlers) process.off(signal, handler);
    this.#handlers.clear();
    this.#listeners.clear();
    if (!this.#claimed && this.#received) process.kill(process.pid, this.#received);
  }
}

/**
 * Resolves once every signal sent before the call has reached its listeners: a signal is read on
 * the poll phase of the event loop, and the second of two turns has one that began after the call.
 */
export async function afterPendingSignals(): Promise<void> {
  for (let turn = 0; turn < 2; turn++) await new Promise((done) => setImmediate(done));
}
