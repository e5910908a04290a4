import { connect, createServer, type Server } from "node:net";
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { watchInboundConnections } from "./inbound-connections.ts";

let server: Server | undefined;
afterEach(() => server?.close());

async function listen(): Promise<number> {
  server = createServer(() => undefined);
  await new Promise<void>((done) => server?.listen(0, "127.0.0.1", done));
  const address = server.address();
  return typeof address === "object" && address ? address.port : 0;
}

describe("watchInboundConnections", () => {
  it("resolves once the connected callers have gone, false while one stays past the limit", async () => {
    const connections = watchInboundConnections();
    const port = await listen();
    expect(await connections.untilNone(10)).toBe(true);
    const first = connect(port, "127.0.0.1");
    const second = connect(port, "127.0.0.1");
    while (connections.count < 2) await new Promise((done) => setTimeout(done, 10));
    expect(await connections.untilNone(100)).toBe(false);
    const gone = connections.untilNone(5_000);
    first.destroy();
    setTimeout(() => second.destroy(), 100);
    expect(await gone).toBe(true);
    expect(connections.count).toBe(0);
  });

  it("leaves out ignored ports (the metrics server)", async () => {
    const port = await listen();
    const ignoredServer = server as Server;
    const counted = createServer(() => undefined);
    onTestFinished(() => {
      counted.close();
    });
    await new Promise<void>((done) => counted.listen(0, "127.0.0.1", done));
    const countedAddress = counted.address();
    const countedPort = typeof countedAddress === "object" && countedAddress ? countedAddress.port : 0;
    const connections = watchInboundConnections({ ignorePorts: [port] });
    // Awaited, not slept: the server has accepted the connection, so the watcher has seen it
    // (net.server.socket is published before "connection" is emitted).
    const accepted = new Promise((done) => ignoredServer.once("connection", done));
    const client = connect(port, "127.0.0.1");
    await accepted;
    expect(connections.count).toBe(0);
    // The same watcher counts a connection on a port it does not ignore.
    const acceptedToo = new Promise((done) => counted.once("connection", done));
    const other = connect(countedPort, "127.0.0.1");
    await acceptedToo;
    expect(connections.count).toBe(1);
    client.destroy();
    other.destroy();
  });
});
