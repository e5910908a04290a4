import { connect, createServer } from "node:net";
import { describe, expect, it, onTestFinished } from "vitest";
import { dualStackOrIpv4, ipv6Available } from "./dual-stack.ts";

const quiet = { warn: () => undefined };

/** True when a TCP connection to host:port is accepted. */
const reaches = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, host);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

describe("dualStackOrIpv4", () => {
  it("keeps `::` where IPv6 is available, and a listener there is reached over ::1 and 127.0.0.1", async () => {
    expect(await ipv6Available()).toBe(true);
    const host = await dualStackOrIpv4("::", quiet);
    expect(host).toBe("::");
    const server = createServer((socket) => socket.destroy());
    onTestFinished(() => {
      server.close();
    });
    await new Promise<void>((done) => server.listen({ host, port: 0 }, done));
    const { port } = server.address() as { port: number };
    expect(await reaches("::1", port)).toBe(true);
    expect(await reaches("127.0.0.1", port)).toBe(true);
  });

  it("falls back to 0.0.0.0 for `::` and `[::]:port` where the kernel has no IPv6, and says so", async () => {
    // The kernel here has IPv6: a machine without it is stood for by the answer of the probe.
    const warned: object[] = [];
    const log = { warn: (fields: object) => warned.push(fields) };
    const none = async () => false;
    expect(await dualStackOrIpv4("::", log, none)).toBe("0.0.0.0");
    expect(await dualStackOrIpv4("[::]:50052", log, none)).toBe("0.0.0.0:50052");
    expect(warned).toEqual([
      { address: "::", listening: "0.0.0.0" },
      { address: "[::]:50052", listening: "0.0.0.0:50052" },
    ]);
  });

  it("leaves any other address alone", async () => {
    const none = async () => false;
    for (const address of ["127.0.0.1", "0.0.0.0", "::1", "127.0.0.1:50052", "[::1]:50052", "0.0.0.0:50052"]) {
      expect(await dualStackOrIpv4(address, quiet, none)).toBe(address);
    }
  });
});
