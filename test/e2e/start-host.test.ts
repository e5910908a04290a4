// `npm start` prints the admin token and, without SECRET_KEK, seals with the public development
// key: unless HOST says otherwise it listens on this machine only (127.0.0.1), its gRPC services
// too (scripts/lib/start-addresses.test.ts). Checked two ways: the address the gateway reports it
// listens on, and a connection to another address of this machine, which must be refused.
import { connect } from "node:net";
import { networkInterfaces } from "node:os";
import { afterAll, describe, expect, it } from "vitest";
import { dropDatabase, TEST_DATABASE_SERVER } from "../support/database.ts";
import { StartProcess } from "./start-process.ts";

const databaseName = `pulsegate_start_host_${process.pid}`;
let start: StartProcess | undefined;

afterAll(async () => {
  if (start?.running) await start.stop("SIGINT", 30_000).catch(() => start?.kill());
  await dropDatabase(databaseName);
});

/** An IPv4 address of this machine other than loopback, if it has one. */
function externalAddress(): string | undefined {
  const addresses = Object.values(networkInterfaces()).flatMap((list) => list ?? []);
  return addresses.find((address) => address.family === "IPv4" && !address.internal)?.address;
}

/** "connected", or the error code a connection to host:port ends with (ECONNREFUSED: nothing listens there). */
function tryConnect(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 5_000 });
    socket.once("connect", () => {
      socket.destroy();
      resolve("connected");
    });
    socket.once("timeout", () => {
      socket.destroy();
      resolve("timeout");
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

describe("npm start without HOST", () => {
  it("listens on 127.0.0.1 only: the gateway says so, and another address of this machine refuses", async ({
    annotate,
  }) => {
    start = await StartProcess.spawn({
      // No HOST: npm start's own choice. LOG_LEVEL info: the gateway's "Server listening at" lines.
      env: {
        HOST: undefined,
        LOG_LEVEL: "info",
        DATABASE_URL: `${TEST_DATABASE_SERVER}/${databaseName}`,
        REDIS_URL: process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379",
      },
    });
    await start.waitReady(150_000);
    const port = Number(new URL(start.baseUrl).port);
    // Fastify reports every address it listens on: one line per interface when bound to all.
    const listening = [...start.output().matchAll(/Server listening at (http:\/\/\S+?)"/g)].map((match) => match[1]);
    expect(listening).toEqual([`http://127.0.0.1:${port}`]);
    expect(start.output()).toContain(`[pulsegate] gateway listening on 127.0.0.1:${port}`);
    expect(await tryConnect("127.0.0.1", port)).toBe("connected");

    const external = externalAddress();
    if (external === undefined) {
      await annotate("this machine has no address but loopback: only the reported address was checked", "notice");
      return;
    }
    expect(await tryConnect(external, port)).toBe("ECONNREFUSED");
  }, 200_000);
});
