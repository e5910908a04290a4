import { readdirSync, readFileSync } from "node:fs";

/** CPU seconds used so far by each process of this machine that makes up the bench, with its role. */
export type ProcessCpu = Map<string, { role: string; seconds: number }>;

/** The bench's processes (by pid) and the CPU seconds each has used so far. */
export function cpuByRole(): ProcessCpu {
  const ticks = 100; // USER_HZ on Linux
  const processes: ProcessCpu = new Map();
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
    processes.set(entry, { role, seconds });
  }
  return processes;
}

function roleOf(cmdline: string, pid: string): string | null {
  const service = /services\/(gateway|auth|alerts|monitors)\/src\/main\.ts/.exec(cmdline)?.[1];
  if (service) return service;
  if (cmdline.startsWith("postgres")) return "postgres";
  if (cmdline.startsWith("redis-server")) return "redis";
  if (pid === String(process.pid)) return "load generator";
  return null;
}

/**
 * CPU µs per request of each role between two samples, summed process by process: a process that
 * ended meanwhile (a PostgreSQL backend whose pooled connection was closed when idle) is left out
 * rather than taken off the total, and one that started counts from zero.
 */
export function cpuPerRequest(before: ProcessCpu, after: ProcessCpu, requests: number) {
  const used = new Map<string, number>();
  for (const [pid, { role, seconds }] of after) {
    const earlier = before.get(pid);
    const delta = earlier?.role === role ? seconds - earlier.seconds : seconds;
    used.set(role, (used.get(role) ?? 0) + delta);
  }
  const perRole: Record<string, number> = {};
  for (const [role, seconds] of used) {
    if (seconds > 0 && requests > 0) perRole[role] = Math.round((seconds * 1e6) / requests);
  }
  return perRole;
}
