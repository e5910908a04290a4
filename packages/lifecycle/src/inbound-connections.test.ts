import { connect, createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { grpcDrainMs, watchInboundConnections } from "./inbound-connections.ts";

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
    const connections = watchInboundConnections({ ignorePorts: [port] });
    const client = connect(port, "127.0.0.1");
    await new Promise((done) => client.once("connect", done));
    await new Promise((done) => setTimeout(done, 50));
    expect(connections.count).toBe(0);
    client.destroy();
  });
});

describe("grpcDrainMs", () => {
  it("defaults to 5 s and names the variable when invalid", () => {
    expect(grpcDrainMs({})).toBe(5_000);
    expect(grpcDrainMs({ GRPC_DRAIN_MS: "0" })).toBe(0);
    expect(() => grpcDrainMs({ GRPC_DRAIN_MS: "soon" })).toThrow(/GRPC_DRAIN_MS/);
  });
});
