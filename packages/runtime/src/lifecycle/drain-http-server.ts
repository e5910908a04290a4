import type { Server, ServerResponse } from "node:http";
import { Server as NetServer, type Socket } from "node:net";

export type HttpDrain = {
  /**
   * Stops accepting connections and resolves once every connection has
   * closed: requests already begun (a body still arriving included) are
   * answered, each answer from now on with `Connection: close`; kept-alive
   * connections get `idleGraceMs` to bring a request their client may
   * already be sending, then the idle ones are closed.
   */
  drain: (options?: { idleGraceMs?: number }) => Promise<void>;
};

/** A client's next request on a kept-alive connection arrives well within this. */
const IDLE_GRACE_MS = 500;

/**
 * Watches an HTTP server's connections and requests from now on (call it
 * before listening), for a drain that answers everything it has begun.
 * `http.Server#close` alone is not enough: it destroys idle kept-alive
 * connections at once (racing a request their client is sending), leaves
 * the others open until their keep-alive timeout, and never closes a
 * connection that has not sent a request yet.
 */
export function watchHttpServer(server: Server): HttpDrain {
  const open = new Set<ServerResponse>();
  /** Per connection: answers still open, and how many bytes it had read when it last went idle. */
  const connections = new Map<Socket, { answering: number; readWhenIdle: number }>();
  let draining = false;
  const closeAfter = (response: ServerResponse) => {
    if (!response.headersSent) response.setHeader("connection", "close");
  };

  server.on("connection", (socket: Socket) => {
    connections.set(socket, { answering: 0, readWhenIdle: 0 });
    socket.once("close", () => connections.delete(socket));
  });
  // Before the application's own listener, so that it is set before any answer is written.
  server.prependListener("request", (request, response: ServerResponse) => {
    const socket = request.socket;
    const connection = connections.get(socket);
    if (connection) connection.answering += 1;
    if (draining) closeAfter(response);
    open.add(response);
    response.once("close", () => {
      open.delete(response);
      if (!connection) return;
      connection.answering -= 1;
      connection.readWhenIdle = socket.bytesRead;
    });
  });

  /** Idle: nothing being answered and nothing read since (no request begun, not even its first bytes). */
  const closeIdle = () => {
    for (const [socket, connection] of connections) {
      if (connection.answering === 0 && socket.bytesRead === connection.readWhenIdle) socket.destroy();
    }
  };

  return {
    drain: async ({ idleGraceMs = IDLE_GRACE_MS } = {}) => {
      draining = true;
      for (const response of open) closeAfter(response);
      // net.Server#close stops accepting and calls back once every connection has closed.
      const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([closed, new Promise((resolve) => (timer = setTimeout(resolve, idleGraceMs)))]);
      clearTimeout(timer);
      closeIdle();
      await closed;
    },
  };
}
