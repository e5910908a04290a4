import { eventually } from "./eventually.ts";

/** One scrape of a service's Prometheus endpoint (the service runs with METRICS_PORT=port). */
export async function scrape(port: number): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`);
  if (response.status !== 200) throw new Error(`/metrics on ${port}: ${response.status}`);
  return response.text();
}

/** The sum of a metric's samples whose labels include all of `labels` (0 when there is none). */
export function sampleSum(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (\S+)/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = match[2] ?? "";
    if (Object.entries(labels).every(([key, value]) => found.includes(`${key}="${value}"`))) sum += Number(match[3]);
  }
  return sum;
}

/** A counter of one service now (see sampleSum). */
export async function counter(port: number, name: string, labels: Record<string, string> = {}): Promise<number> {
  return sampleSum(await scrape(port), name, labels);
}

/**
 * Until the counter reaches `atLeast`: an awaited event that proves the work
 * it counts (sweeps, drains) happened, where a sleep would only hope so.
 */
export async function untilCounter(
  port: number,
  name: string,
  labels: Record<string, string>,
  atLeast: number,
  options: { timeoutMs?: number; what?: string } = {},
): Promise<number> {
  return eventually(
    async () => {
      const value = await counter(port, name, labels);
      return value >= atLeast ? value : undefined;
    },
    { what: options.what ?? `${name} >= ${atLeast}`, timeoutMs: options.timeoutMs },
  );
}
