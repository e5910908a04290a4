import { readFileSync } from "node:fs";
import { createServer } from "node:net";

/**
 * Where outgoing connections take their local ports (Linux's ip_local_port_range, 32768–60999 by
 * default). A port handed out there and closed again can be taken by any client socket of the
 * machine (a test's database or gRPC connection) before the service it was meant for binds it
 * (EADDRINUSE at start), so ports for services are chosen below that range.
 */
const EPHEMERAL_FROM = (() => {
  try {
    return Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]) || 32_768;
  } catch {
    return 32_768;
  }
})();
const LOWEST = 10_000;

/** Whether `port` of `host` can be bound now. */
function isFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/** A port of `host`, below the ephemeral range, that was free a moment ago. */
export async function freePort(host = "127.0.0.1"): Promise<number> {
  for (;;) {
    const port = LOWEST + Math.floor(Math.random() * (EPHEMERAL_FROM - LOWEST));
    if (await isFree(port, host)) return port;
  }
}

/** N such that N..N+count-1 were all free a moment ago (for a block of ports counted from one). */
export async function freePortRange(count: number, host = "127.0.0.1"): Promise<number> {
  for (;;) {
    const base = LOWEST + Math.floor(Math.random() * (EPHEMERAL_FROM - LOWEST - count));
    const all = await Promise.all(Array.from({ length: count }, (_, offset) => isFree(base + offset, host)));
    if (all.every(Boolean)) return base;
  }
}
