import { withTimeout } from "./with-timeout.ts";

export type Closer = {
  name: string;
  /** Given how long it may take: what is left of the shutdown budget (see closeOnSignals). */
  close: (timeoutMs: number) => Promise<unknown> | unknown;
  /** At most this long, however much of the budget is left (e.g. an HTTP drain bounded by the request deadline). */
  timeoutMs?: number;
  /** Held back for this closer from the ones before it, so that a slow step cannot leave it nothing. */
  reserveMs?: number;
};

type Log = {
  info: (obj: object, msg: string) => void;
  warn: (obj: object, msg: string) => void;
  error: (obj: object, msg: string) => void;
};

export type CloseOnSignalsOptions = {
  /**
   * The whole shutdown, first closer to last (SHUTDOWN_TIMEOUT_MS): shorter than the time the
   * platform waits before SIGKILL (on Kubernetes the grace period less the preStop delay).
   */
  budgetMs: number;
};

/**
 * On SIGTERM or SIGINT, runs the closers in order (stop accepting, drain,
 * then close clients and pools) and exits 0. They share one budget: each
 * gets what is left of it, less what the closers after it hold back
 * (`reserveMs`), and at most its own `timeoutMs`; a closer that overruns is
 * abandoned and the next one starts, so the process exits within the budget
 * whatever hangs (a collector that never answers, a database that stalls).
 * A second signal while draining is logged and ignored: signalling a process
 * group (kill -TERM -PGID, Ctrl-C under `npm start`, supervisors) reaches a
 * service both directly and through its parent, and that must not cut the
 * drain short. A third signal forces exit 1, abandoning in-flight work.
 * Returns the function that shuts down, so tests and start scripts can call it.
 */
export function closeOnSignals(log: Log, closers: Closer[], options: CloseOnSignalsOptions): () => Promise<void> {
  let closing: Promise<void> | undefined;
  const shutdown = (): Promise<void> => {
    closing ??= (async () => {
      const deadline = Date.now() + options.budgetMs;
      for (const [index, closer] of closers.entries()) {
        const heldBack = closers.slice(index + 1).reduce((sum, later) => sum + (later.reserveMs ?? 0), 0);
        const bound = Math.min(closer.timeoutMs ?? Number.POSITIVE_INFINITY, deadline - Date.now() - heldBack);
        if (bound <= 0) {
          log.error({ closer: closer.name, budgetMs: options.budgetMs }, "not closed: the shutdown budget is spent");
          continue;
        }
        try {
          await withTimeout(
            Promise.resolve().then(() => closer.close(bound)),
            bound,
            `timed out after ${bound} ms (shutdown budget ${options.budgetMs} ms)`,
          );
          log.info({ closer: closer.name }, "closed");
        } catch (error) {
          log.error({ closer: closer.name, err: error }, "close failed");
        }
      }
    })();
    return closing;
  };
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    signals += 1;
    if (signals === 1) {
      log.info({ signal, budgetMs: options.budgetMs }, "shutting down");
      void shutdown().then(() => process.exit(0));
    } else if (signals === 2) {
      log.warn({ signal }, "already shutting down: signal ignored while in-flight work drains (one more forces exit)");
    } else {
      log.error({ signal }, "forced exit: in-flight work is abandoned");
      process.exit(1);
    }
  };
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, onSignal);
  return shutdown;
}
