import { createConnection, createServer, type Server, type Socket } from "node:net";

/**
 * A TCP proxy on 127.0.0.1 in front of a real server (PostgreSQL) that a test can stall: from then
 * on nothing passes either way on its connections, and neither side's close is answered, as when
 * the server froze or the network drops every packet. A client closing such a connection waits
 * until its own timeout, if it has one.
 */
export class StallingProxy {
  readonly #target: { host: string; port: number };
  readonly #pairs = new Set<[Socket, Socket]>();
  // Half-open allowed: a client's FIN is passed on while flowing, and left unanswered once stalled.
  readonly #server: Server = createServer({ allowHalfOpen: true }, (client) => this.#connect(client));
  #stalled = false;

  private constructor(target: { host: string; port: number }) {
    this.#target = target;
  }

  static async start(target: { host: string; port: number }): Promise<StallingProxy> {
    const proxy = new StallingProxy(target);
    await new Promise<void>((done) => proxy.#server.listen(0, "127.0.0.1", done));
    return proxy;
  }

  get port(): number {
    const address = this.#server.address();
    return typeof address === "object" && address ? address.port : 0;
  }

  /** Holds every connection: those open now, and new ones from the start. */
  stall(): void {
    this.#stalled = true;
    for (const pair of this.#pairs) this.#hold(pair);
  }

  async close(): Promise<void> {
    for (const pair of this.#pairs) for (const socket of pair) socket.destroy();
    await new Promise<void>((done) => this.#server.close(() => done()));
  }

  #connect(client: Socket): void {
    const upstream = createConnection({ ...this.#target, allowHalfOpen: true });
    const pair: [Socket, Socket] = [client, upstream];
    this.#pairs.add(pair);
    const close = () => {
      this.#pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    for (const socket of pair) {
      socket.on("error", close);
      socket.on("close", close);
    }
    if (this.#stalled) return;
    client.pipe(upstream);
    upstream.pipe(client);
  }

  #hold([client, upstream]: [Socket, Socket]): void {
    client.unpipe(upstream);
    upstream.unpipe(client);
    client.pause();
    upstream.pause();
  }
}
