import { createConnection, createServer, type Server, type Socket } from "node:net";
import { freePort } from "./free-port.ts";

/**
 * A TCP proxy in front of a real server (PostgreSQL, Redis) that a test can
 * cut and restore, to take a dependency away from the services without
 * stopping the machine's server that other tests use. Cut: stop listening
 * (new connections are refused) and drop every open connection.
 */
export class TcpProxy {
  readonly port: number;
  /** The address it listens on (127.0.0.1 unless started on another). */
  readonly host: string;
  readonly #target: { host: string; port: number };
  readonly #sockets = new Set<Socket>();
  #server: Server | undefined;

  private constructor(host: string, port: number, target: { host: string; port: number }) {
    this.host = host;
    this.port = port;
    this.#target = target;
  }

  /** Listening on `host` (default 127.0.0.1), a free port of it. */
  static async start(target: { host: string; port: number }, host = "127.0.0.1"): Promise<TcpProxy> {
    const port = await freePort(host);
    const proxy = new TcpProxy(host, port, target);
    await proxy.restore();
    return proxy;
  }

  /** Listens again on the same port. */
  async restore(): Promise<void> {
    if (this.#server) return;
    const server = createServer((client) => {
      const upstream = createConnection(this.#target);
      this.#track(client);
      this.#track(upstream);
      client.pipe(upstream);
      upstream.pipe(client);
      const close = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on("error", close);
      upstream.on("error", close);
      client.on("close", close);
      upstream.on("close", close);
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.port, this.host, () => resolve());
    });
    this.#server = server;
  }

  /** Refuses new connections and drops the open ones. */
  async cut(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    const closed = server ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
    for (const socket of this.#sockets) socket.destroy();
    this.#sockets.clear();
    await closed;
  }

  async close(): Promise<void> {
    await this.cut();
  }

  #track(socket: Socket): void {
    this.#sockets.add(socket);
    socket.on("close", () => this.#sockets.delete(socket));
  }
}

/** Host and port of a postgres:// or redis:// URL. */
export function hostPortOf(url: string, defaultPort: number): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname || "127.0.0.1", port: Number(parsed.port || defaultPort) };
}
