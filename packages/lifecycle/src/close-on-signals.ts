import { withTimeout } from "./with-timeout.ts";

export type Closer = {
  name: string;
  close: () => Promise<unknown> | unknown;
  /** Overrides closeOnSignals' bound for this closer (e.g. an HTTP drain bounded by the request timeout). */
  timeoutMs?: number;
};

type Log = {
  info: (obj: object, msg: string) => void;
  warn: (obj: object, msg: string) => void;
  error: (obj: object, msg: string) => void;
};

/**
 * On SIGTERM or SIGINT, runs the closers in order (stop accepting, drain,
 * then close clients and pools), each bounded by `timeoutMs`, and exits 0.
 * A second signal while draining is logged and ignored: signalling a process
 * group (kill -TERM -PGID, Ctrl-C under `npm start`, supervisors) reaches a
 * service both directly and through its parent, and that must not cut the
 * drain short. A third signal forces exit 1, abandoning in-flight work.
 * Returns the function that shuts down, so tests and start scripts can call it.
 */
export function closeOnSignals(log: Log, closers: Closer[], timeoutMs = 10_000): () => Promise<void> {
  let closing: Promise<void> | undefined;
  const shutdown = (): Promise<void> => {
    closing ??= (async () => {
      for (const closer of closers) {
        const bound = closer.timeoutMs ?? timeoutMs;
        try {
          await withTimeout(Promise.resolve(closer.close()), bound, `timed out after ${bound} ms`);
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
      log.info({ signal }, "shutting down");
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
