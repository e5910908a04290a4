import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type HeldRequest = { method: string; path: string; body: string };

/**
 * An HTTP proxy on 127.0.0.1 in front of a real gateway that never answers the requests `hold`
 * picks (they stay in flight until their client gives up) and passes every other one on, bytes
 * unchanged, so signatures still verify. For a test that needs a caller caught mid-request.
 */
export class HoldingProxy {
  readonly held: HeldRequest[] = [];
  readonly #target: string;
  readonly #hold: (request: HeldRequest) => boolean;
  readonly #server = createServer((request, response) => void this.#handle(request, response));
  readonly #waiters = new Set<() => void>();

  private constructor(target: string, hold: (request: HeldRequest) => boolean) {
    this.#target = target;
    this.#hold = hold;
  }

  static async start(target: string, hold: (request: HeldRequest) => boolean): Promise<HoldingProxy> {
    const proxy = new HoldingProxy(target, hold);
    await new Promise<void>((done) => proxy.#server.listen(0, "127.0.0.1", done));
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  /** Resolves once a request is being held. */
  async nextHeld(): Promise<HeldRequest> {
    const count = this.held.length;
    while (this.held.length === count) await new Promise<void>((wake) => this.#waiters.add(wake));
    return this.held[count] as HeldRequest;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((done) => this.#server.close(() => done()));
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const seen = { method: request.method ?? "GET", path: request.url ?? "/", body: raw.toString() };
    if (this.#hold(seen)) {
      this.held.push(seen);
      for (const wake of this.#waiters) wake();
      this.#waiters.clear();
      return;
    }
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter(
        (entry): entry is [string, string] =>
          typeof entry[1] === "string" && !["host", "connection", "content-length"].includes(entry[0]),
      ),
    );
    const answer = await fetch(`${this.#target}${seen.path}`, {
      method: seen.method,
      headers,
      ...(raw.length > 0 ? { body: raw } : {}),
    });
    response.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "text/plain" });
    response.end(Buffer.from(await answer.arrayBuffer()));
  }
}
