/**
 * `work`, or a rejection once `ms` pass without its answer (the work itself
 * goes on; its outcome is ignored). The timer never holds the process open.
 */
export function withTimeout<T>(work: Promise<T>, ms: number, message = `no answer within ${ms} ms`): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
    timer.unref();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
