import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach } from "vitest";

export type ReceivedRequest = {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw bytes, as a signature must be computed over them. */
  raw: Buffer;
  json: Record<string, unknown>;
};

/**
 * What to answer the n-th request (0-based): a status code, a status code with
 * headers (e.g. Retry-After), or "hang" to never answer.
 */
export type Behaviour = (
  request: ReceivedRequest,
  index: number,
) => number | { status: number; headers: Record<string, string> } | "hang";

/**
 * A notification receiver on 127.0.0.1 (port 0), standing in for Slack or a
 * team's webhook endpoint. It records every request and answers as told.
 */
export class Receiver {
  readonly requests: ReceivedRequest[] = [];
  behaviour: Behaviour = () => 200;
  readonly #server = createServer((request, response) => this.#handle(request, response));
  readonly #waiters = new Set<() => void>();
  #port = 0;

  static async start(behaviour?: Behaviour): Promise<Receiver> {
    const receiver = new Receiver();
    if (behaviour) receiver.behaviour = behaviour;
    await new Promise<void>((done) => receiver.#server.listen(0, "127.0.0.1", done));
    receiver.#port = (receiver.#server.address() as AddressInfo).port;
    return receiver;
  }

  url(path = "/hooks/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX"): string {
    return `http://127.0.0.1:${this.#port}${path}`;
  }

  /** Resolves with the requests once `predicate` holds for them; rejects after `timeoutMs`. */
  async waitFor(
    predicate: (requests: ReceivedRequest[]) => boolean,
    what: string,
    timeoutMs = 20_000,
  ): Promise<ReceivedRequest[]> {
    if (predicate(this.requests)) return this.requests;
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!predicate(this.requests)) return;
        clearTimeout(timer);
        this.#waiters.delete(check);
        resolve(this.requests);
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(check);
        reject(new Error(`receiver: timed out waiting for ${what}; got ${this.requests.length} request(s)`));
      }, timeoutMs);
      this.#waiters.add(check);
    });
  }

  /** Waits for at least `count` requests. */
  waitForCount(count: number, timeoutMs?: number): Promise<ReceivedRequest[]> {
    return this.waitFor((requests) => requests.length >= count, `${count} request(s)`, timeoutMs);
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise((done) => this.#server.close(done));
  }

  #handle(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const raw = Buffer.concat(chunks);
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(raw.toString("utf8")) as Record<string, unknown>;
      } catch {
        json = {};
      }
      const received = { method: request.method ?? "", path: request.url ?? "", headers: request.headers, raw, json };
      const index = this.requests.length;
      this.requests.push(received);
      const answer = this.behaviour(received, index);
      if (answer !== "hang") {
        const { status, headers } = typeof answer === "number" ? { status: answer, headers: {} } : answer;
        response.writeHead(status, { "content-type": "text/plain", ...headers }).end(status < 300 ? "ok" : "no");
      }
      for (const waiter of [...this.#waiters]) waiter();
    });
  }
}

/**
 * For a test file whose tests each start their own receivers: `start` is
 * Receiver.start, and every receiver started is closed after its test.
 */
export function receiversClosedAfterEach(): (behaviour?: Behaviour) => Promise<Receiver> {
  const started: Receiver[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((receiver) => receiver.close()));
  });
  return async (behaviour) => {
    const receiver = await Receiver.start(behaviour);
    started.push(receiver);
    return receiver;
  };
}
