import { subscribe } from "node:diagnostics_channel";
import type { Socket } from "node:net";
import type { Closer } from "./close-on-signals.ts";

export type InboundConnections = {
  /** Connections open now (ports given to watchInboundConnections' `ignorePorts` aside). */
  readonly count: number;
  /** Resolves true once none is open, or false after `maxMs` with some still open. */
  untilNone: (maxMs: number) => Promise<boolean>;
};

/**
 * Counts the TCP connections this process accepts from now on, on every
 * server it listens with (call it before listening). A gRPC service uses it
 * at shutdown to keep serving until its callers have gone: they close their
 * channels only once their own drain is over.
 */
export function watchInboundConnections(options: { ignorePorts?: number[] } = {}): InboundConnections {
  const ignored = new Set(options.ignorePorts ?? []);
  const open = new Set<Socket>();
  const waiters = new Set<() => void>();
  subscribe("net.server.socket", (message) => {
    const { socket } = message as { socket: Socket };
    if (socket.localPort !== undefined && ignored.has(socket.localPort)) return;
    open.add(socket);
    socket.once("close", () => {
      open.delete(socket);
      if (open.size === 0) for (const wake of waiters) wake();
    });
  });

  return {
    get count() {
      return open.size;
    },
    untilNone: (maxMs) => {
      if (open.size === 0) return Promise.resolve(true);
      return new Promise((resolve) => {
        const done = (none: boolean) => {
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(none);
        };
        const wake = () => done(true);
        const timer = setTimeout(() => done(false), maxMs);
        waiters.add(wake);
      });
    },
  };
}

/**
 * The first closer of a gRPC service: it keeps serving until its callers
 * (the gateway, or alerts for auth) have disconnected, at most `maxMs`, so
 * that the requests they are still finishing can call it. Under `npm start`
 * every process gets SIGTERM at once; on Kubernetes a preStop delay does the
 * same, and callers connected to other replicas simply reach the limit.
 */
export function waitForCallers(
  connections: InboundConnections,
  maxMs: number,
  log: { info: (obj: object, msg: string) => void },
): Closer {
  return {
    name: "callers",
    timeoutMs: maxMs + 1_000,
    close: async () => {
      if (connections.count > 0) {
        log.info({ callers: connections.count, maxMs }, "serving until callers disconnect");
      }
      const gone = await connections.untilNone(maxMs);
      if (!gone) log.info({ callers: connections.count, maxMs }, "callers still connected: stopping anyway");
    },
  };
}

/** GRPC_DRAIN_MS: how long a gRPC service keeps serving after SIGTERM while callers are still connected. */
export function grpcDrainMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.GRPC_DRAIN_MS;
  if (raw === undefined || raw === "") return 5_000;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 600_000) {
    throw new Error("Invalid configuration:\n  GRPC_DRAIN_MS: must be a whole number of milliseconds, 0 to 600000");
  }
  return value;
}
