/**
 * Monthly quotas (alerts created or reopened, pings accepted) count per team
 * and UTC calendar month; a quota of 0 is unlimited (but still counted).
 */

/** The UTC calendar month of `at` as the quotas count it, and as the usage tables key it: `YYYY-MM-01`. */
export function quotaMonth(at: Date): string {
  return `${at.getUTCFullYear()}-${String(at.getUTCMonth() + 1).padStart(2, "0")}-01`;
}

/** Whole seconds (at least 1) until the next UTC month, when a used-up quota frees up: a 429's Retry-After. */
export function secondsUntilNextQuotaMonth(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}

/** One (team, month) usage counter's key in an in-memory map. */
export function quotaKey(teamId: string, month: string): string {
  return `${teamId}\u0000${month}`;
}

/** True when one more fits: `used` so far this month under a quota of `quota` (0: unlimited). */
export function quotaAllowsOneMore(quota: number, used: number): boolean {
  return quota === 0 || used < quota;
}

/** A team's use of a quota in the UTC month of `at`: what `readUsed` finds for that month, 0 before its first use. */
export async function monthUsage(
  at: Date,
  readUsed: (month: string) => Promise<number | undefined>,
): Promise<{ month: string; used: number }> {
  const month = quotaMonth(at);
  return { month, used: (await readUsed(month)) ?? 0 };
}
