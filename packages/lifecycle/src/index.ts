export type Closer = { name: string; close: () => Promise<unknown> | unknown };

type Log = { info: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };

/**
 * On SIGTERM or SIGINT, runs the closers in order (stop accepting, drain,
 * then close clients and pools), each bounded by `timeoutMs`, and exits.
 * Returns the function that does it, so tests and start scripts can call it.
 */
export function closeOnSignals(log: Log, closers: Closer[], timeoutMs = 10_000): () => Promise<void> {
  let closing: Promise<void> | undefined;
  const shutdown = (): Promise<void> => {
    closing ??= (async () => {
      for (const closer of closers) {
        try {
          await Promise.race([
            Promise.resolve(closer.close()),
            new Promise((_, reject) =>
              setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs).unref(),
            ),
          ]);
          log.info({ closer: closer.name }, "closed");
        } catch (error) {
          log.error({ closer: closer.name, err: error }, "close failed");
        }
      }
    })();
    return closing;
  };
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      log.info({ signal }, "shutting down");
      void shutdown().then(() => process.exit(0));
    });
  }
  return shutdown;
}
