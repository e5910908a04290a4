/**
 * Polls `check` until it returns a value other than undefined (or stops
 * throwing), for effects that happen after a response (outbox workers,
 * sweepers). Fails with the last error or value after `timeoutMs`.
 */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  options: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const { timeoutMs = 15_000, intervalMs = 100, what = "condition" } = options;
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
      last = undefined;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`${what} not reached within ${timeoutMs} ms${last ? `: ${String(last)}` : ""}`);
    }
    await new Promise((done) => setTimeout(done, intervalMs));
  }
}
