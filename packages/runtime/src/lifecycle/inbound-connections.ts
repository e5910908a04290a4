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
    close: async (timeoutMs) => {
      // What is left of the shutdown budget may be less than GRPC_DRAIN_MS: stop just inside it.
      const waitMs = Math.max(0, Math.min(maxMs, timeoutMs - 50));
      if (connections.count > 0) {
        log.info({ callers: connections.count, maxMs: waitMs }, "serving until callers disconnect");
      }
      const gone = await connections.untilNone(waitMs);
      if (!gone) log.info({ callers: connections.count, maxMs: waitMs }, "callers still connected: stopping anyway");
    },
  };
}
