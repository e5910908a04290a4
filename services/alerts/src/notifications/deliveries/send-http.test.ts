import type { LookupAddress } from "node:dns";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  createHttpSender,
  describeSendError,
  type HttpSender,
  PrivateAddressError,
  parseRetryAfter,
  publicOnlyLookup,
} from "./send-http.ts";

type Received = { method: string; url: string; headers: IncomingMessage["headers"]; body: Buffer };

const open: { close: () => unknown }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0)) await thing.close();
});

async function receiver(handle: (request: IncomingMessage, response: ServerResponse) => void) {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({
        method: request.method ?? "",
        url: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks),
      });
      handle(request, response);
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  open.push({ close: () => new Promise((done) => server.close(done)) });
  open.push({ close: () => server.closeAllConnections() });
  return { received, port: (server.address() as AddressInfo).port };
}

function sender(allowPrivateNetworks: boolean, timeoutMs = 2_000): HttpSender {
  const created = createHttpSender({ allowPrivateNetworks, timeoutMs });
  open.unshift({ close: () => created.close() });
  return created;
}

describe("createHttpSender", () => {
  it("POSTs the exact bytes with the given headers and returns the status", async () => {
    const { received, port } = await receiver((_request, response) => response.writeHead(204).end());
    const body = Buffer.from('{"a": 1,  "b":"é"}');
    const answer = await sender(true).post(`http://127.0.0.1:${port}/hook?x=1`, body, {
      "content-type": "application/json",
      "x-pulsegate-delivery": "dlv_1",
    });
    expect(answer).toEqual({ statusCode: 204, retryAfterMs: null });
    expect(received).toHaveLength(1);
    expect(received[0]?.method).toBe("POST");
    expect(received[0]?.url).toBe("/hook?x=1");
    expect(received[0]?.headers["x-pulsegate-delivery"]).toBe("dlv_1");
    expect(received[0]?.body.equals(body)).toBe(true);
  });

  it("does not follow redirects: the 3xx is the answer", async () => {
    const { received, port } = await receiver((_request, response) =>
      response.writeHead(302, { location: `http://127.0.0.1:1/elsewhere` }).end(),
    );
    const answer = await sender(true).post(`http://127.0.0.1:${port}/`, Buffer.from("{}"), {});
    expect(answer.statusCode).toBe(302);
    expect(received).toHaveLength(1);
  });

  it("reads a bounded part of an answer that never ends, then lets go", async () => {
    await receiver((_request, response) => {
      response.writeHead(200, { "content-type": "text/plain" });
      const chunk = Buffer.alloc(16 * 1024, 97);
      const timer = setInterval(() => response.write(chunk), 1);
      response.on("close", () => clearInterval(timer));
    }).then(async ({ port }) => {
      // An unbounded read would wait for the end and time out instead.
      const answer = await sender(true, 3_000).post(`http://127.0.0.1:${port}/`, Buffer.from("{}"), {});
      expect(answer.statusCode).toBe(200);
    });
  });

  it("gives up on a receiver that never answers", async () => {
    const { received, port } = await receiver(() => undefined);
    const error = await sender(true, 300)
      .post(`http://127.0.0.1:${port}/`, Buffer.from("{}"), {})
      .then(
        () => null,
        (reason: unknown) => reason,
      );
    expect(received).toHaveLength(1);
    expect(describeSendError(error, 300)).toBe("timed out after 300 ms");
  });

  it("passes Retry-After on", async () => {
    const { port } = await receiver((_request, response) => response.writeHead(429, { "retry-after": "7" }).end());
    expect(await sender(true).post(`http://127.0.0.1:${port}/`, Buffer.from("{}"), {})).toEqual({
      statusCode: 429,
      retryAfterMs: 7_000,
    });
  });

  describe("with private networks not allowed", () => {
    it.each(["127.0.0.1", "[::ffff:127.0.0.1]"])("refuses the address literal %s without connecting", async (host) => {
      const { received, port } = await receiver((_request, response) => response.end());
      const error = await sender(false)
        .post(`http://${host}:${port}/`, Buffer.from("{}"), {})
        .catch((reason: unknown) => reason);
      expect(error).toBeInstanceOf(PrivateAddressError);
      expect(describeSendError(error, 1_000)).toBe(
        "refused: the destination is a loopback, private or link-local address",
      );
      expect(received).toHaveLength(0);
    });

    it("refuses a name that resolves to loopback (checked after DNS) without connecting", async () => {
      const { received, port } = await receiver((_request, response) => response.end());
      const error = await sender(false)
        .post(`http://localhost:${port}/`, Buffer.from("{}"), {})
        .catch((reason: unknown) => reason);
      expect(describeSendError(error, 1_000)).toBe(
        "refused: the destination is a loopback, private or link-local address",
      );
      expect(received).toHaveLength(0);
    });
  });
});

describe("publicOnlyLookup", () => {
  const fakeResolver = (...addresses: LookupAddress[]) =>
    // biome-ignore lint/suspicious/noExplicitAny: dns.lookup's overloads are not worth spelling out here.
    ((_host: string, _options: unknown, callback: any) => callback(null, addresses)) as any;

  const run = (lookup: ReturnType<typeof publicOnlyLookup>, all: boolean) =>
    new Promise<{ error: Error | null; result: unknown }>((done) => {
      lookup("example.test", { all } as never, (error: Error | null, address: unknown, family?: number) =>
        done({ error, result: all ? address : { address, family } }),
      );
    });

  it("hands over exactly the checked public addresses", async () => {
    const lookup = publicOnlyLookup(
      fakeResolver({ address: "93.184.216.34", family: 4 }, { address: "2606:4700::1", family: 6 }),
    );
    expect(await run(lookup, true)).toEqual({
      error: null,
      result: [
        { address: "93.184.216.34", family: 4 },
        { address: "2606:4700::1", family: 6 },
      ],
    });
    expect(await run(lookup, false)).toEqual({ error: null, result: { address: "93.184.216.34", family: 4 } });
  });

  it("refuses the name when any address is private (a rebinding answer mixes them)", async () => {
    const lookup = publicOnlyLookup(
      fakeResolver({ address: "93.184.216.34", family: 4 }, { address: "10.0.0.7", family: 4 }),
    );
    const { error } = await run(lookup, true);
    expect(error).toBeInstanceOf(PrivateAddressError);
  });

  it("refuses IPv4-mapped and link-local IPv6 answers", async () => {
    for (const address of ["::ffff:169.254.169.254", "fe80::1", "::1"]) {
      const { error } = await run(publicOnlyLookup(fakeResolver({ address, family: 6 })), false);
      expect(error).toBeInstanceOf(PrivateAddressError);
    }
  });
});

describe("parseRetryAfter", () => {
  it("reads seconds and HTTP dates", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter("soon", now)).toBeNull();
  });
});

describe("describeSendError", () => {
  it("never repeats a library's message, which may hold the URL", () => {
    const error = Object.assign(new Error("connect ECONNREFUSED https://hooks.slack.com/services/SECRET"), {
      code: "ECONNREFUSED",
    });
    expect(describeSendError(error, 1_000)).toBe("connection refused");
    expect(describeSendError(new Error("https://hooks.slack.com/services/SECRET"), 1_000)).toBe("request failed");
  });
});
