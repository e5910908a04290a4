import { readdirSync, readFileSync } from "node:fs";

/** CPU seconds used so far by the processes of this machine that make up the bench, by role. */
export function cpuByRole(): Map<string, number> {
  const ticks = 100; // USER_HZ on Linux
  const totals = new Map<string, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let cmdline: string;
    let stat: string;
    try {
      cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\u0000", " ");
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // gone meanwhile
    }
    const role = roleOf(cmdline, entry);
    if (!role) continue;
    // Fields after the command name (which may hold spaces): utime is the 14th field, stime the 15th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const seconds = (Number(fields[11]) + Number(fields[12])) / ticks;
    totals.set(role, (totals.get(role) ?? 0) + seconds);
  }
  return totals;
}

function roleOf(cmdline: string, pid: string): string | null {
  const service = /services\/(gateway|auth|alerts|monitors)\/src\/main\.ts/.exec(cmdline)?.[1];
  if (service) return service;
  if (cmdline.startsWith("postgres")) return "postgres";
  if (cmdline.startsWith("redis-server")) return "redis";
  if (pid === String(process.pid)) return "load generator";
  return null;
}

/** CPU µs per request of each role between two samples. */
export function cpuPerRequest(before: Map<string, number>, after: Map<string, number>, requests: number) {
  const perRole: Record<string, number> = {};
  for (const [role, seconds] of after) {
    const used = seconds - (before.get(role) ?? 0);
    if (used > 0 && requests > 0) perRole[role] = Math.round((used * 1e6) / requests);
  }
  return perRole;
}
