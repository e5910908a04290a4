import { createServer, type Server } from "node:http";
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { watchHttpServer } from "./drain-http-server.ts";

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
});

async function start(): Promise<{ port: number; drain: ReturnType<typeof watchHttpServer> }> {
  server = createServer((request, response) => {
    let length = 0;
    request.on("data", (chunk: Buffer) => {
      length += chunk.length;
    });
    request.on("end", () => response.end(JSON.stringify({ length })));
  });
  server.keepAliveTimeout = 60_000;
  const drain = watchHttpServer(server);
  await new Promise<void>((done) => server?.listen(0, "127.0.0.1", done));
  const address = server.address();
  return { port: typeof address === "object" && address ? address.port : 0, drain };
}

function open(port: number): Promise<{ socket: Socket; text: () => string; closed: Promise<void> }> {
  const socket = connect(port, "127.0.0.1");
  let received = "";
  socket.on("data", (chunk: Buffer) => {
    received += chunk.toString();
  });
  const closed = new Promise<void>((done) => socket.once("close", () => done()));
  return new Promise((done) => socket.once("connect", () => done({ socket, text: () => received, closed })));
}

/** Resolves once the server has accepted `count` more connections. */
function acceptedConnections(count: number): Promise<void> {
  let left = count;
  return new Promise((done) => {
    const onConnection = () => {
      if (--left > 0) return;
      server?.off("connection", onConnection);
      done();
    };
    server?.on("connection", onConnection);
  });
}

const post = (length: number) => `POST / HTTP/1.1\r\nHost: x\r\nContent-Length: ${length}\r\n\r\n`;

describe("watchHttpServer().drain()", () => {
  it("answers a request whose body is still arriving, with Connection: close, then resolves", async () => {
    const { port, drain } = await start();
    const accepted = acceptedConnections(2);
    const begun = new Promise((done) => server?.once("request", done));
    const client = await open(port);
    // An idle kept-alive connection beside it: its close marks the end of the grace.
    const idle = await open(port);
    await accepted;
    client.socket.write(`${post(10)}12345`);
    await begun;
    let drained = false;
    const draining = drain.drain({ idleGraceMs: 100 }).then(() => {
      drained = true;
    });
    // Awaited, not slept: the grace is over (the idle connection was closed), and the drain still
    // waits for the request whose body is arriving.
    await idle.closed;
    expect(idle.text()).toBe("");
    expect(drained).toBe(false);
    expect(client.text()).toBe("");
    client.socket.write("67890");
    await client.closed;
    await draining;
    expect(client.text()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(client.text().toLowerCase()).toContain("connection: close");
    expect(client.text()).toContain('{"length":10}');
  });

  it("serves a request a kept-alive client sends during the grace, then closes idle connections", async () => {
    const { port, drain } = await start();
    const busy = await open(port);
    const idle = await open(port);
    const draining = drain.drain({ idleGraceMs: 300 });
    busy.socket.write(`${post(2)}ok`);
    await busy.closed;
    expect(busy.text()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    await idle.closed;
    await draining;
    expect(idle.text()).toBe("");
    // No new connection is accepted.
    const refused = connect(port, "127.0.0.1");
    const error = await new Promise<NodeJS.ErrnoException>((done) => refused.once("error", done));
    expect(error.code).toBe("ECONNREFUSED");
  });
});
