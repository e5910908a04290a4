import { createServer, type Server as TcpServer } from "node:net";
import {
  makeGenericClientConstructor,
  Server,
  ServerCredentials,
  type ServiceDefinition,
  type ServiceError,
  status,
} from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callUnary, connectClient, RECONNECT_BACKOFF_MAX_MS, type UnaryMethod } from "./client.ts";
import { jsonMethod } from "./testing/json-method.ts";

// A one-method service answering after `ms`, over JSON: enough to watch deadlines at work.
const definition: ServiceDefinition = { wait: jsonMethod("/test.Slow/Wait") };
type SlowClient = InstanceType<ReturnType<typeof makeGenericClientConstructor>> & {
  wait: UnaryMethod<{ ms: number }, { waited: number }>;
};
const SlowClientCtor = makeGenericClientConstructor(definition, "Slow") as unknown as Parameters<
  typeof connectClient<SlowClient>
>[0];

const server = new Server();
server.addService(definition, {
  wait: (call: { request: { ms: number } }, callback: (error: null, response: { waited: number }) => void) => {
    setTimeout(() => callback(null, { waited: call.request.ms }), call.request.ms).unref();
  },
});
let address = "";

beforeAll(async () => {
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  address = `127.0.0.1:${port}`;
});
afterAll(() => {
  server.forceShutdown();
});

describe("connectClient and callUnary", () => {
  it("answer within the client's deadline", async () => {
    const client = connectClient(SlowClientCtor, address, { deadlineMs: 5_000 });
    expect(client.deadlineMs).toBe(5_000);
    await expect(callUnary(client, "wait", { ms: 1 })).resolves.toEqual({ waited: 1 });
    client.close();
  });

  it("give up at the client's deadline with DEADLINE_EXCEEDED, without a timeout at the call", async () => {
    const client = connectClient(SlowClientCtor, address, { deadlineMs: 150 });
    const started = Date.now();
    const error = (await callUnary(client, "wait", { ms: 3_000 }).catch((e: unknown) => e)) as ServiceError;
    expect(error.code).toBe(status.DEADLINE_EXCEEDED);
    expect(Date.now() - started).toBeLessThan(2_500);
    client.close();
  });

  it("let one call carry a bound of its own", async () => {
    const client = connectClient(SlowClientCtor, address, { deadlineMs: 150 });
    await expect(callUnary(client, "wait", { ms: 400 }, { deadlineMs: 10_000 })).resolves.toEqual({ waited: 400 });
    const error = (await callUnary(client, "wait", { ms: 3_000 }, { deadlineMs: 100 }).catch(
      (e: unknown) => e,
    )) as ServiceError;
    expect(error.code).toBe(status.DEADLINE_EXCEEDED);
    client.close();
  });
});

describe("reconnecting to a peer that is away", () => {
  it("tries its address again at least every RECONNECT_BACKOFF_MAX_MS (±20 %), not after ever longer waits", async () => {
    // A peer that takes each connection and drops it at once: every attempt fails, and is counted.
    const attempts: number[] = [];
    const peer: TcpServer = createServer((socket) => {
      attempts.push(Date.now());
      socket.destroy();
    });
    const port = await new Promise<number>((resolve) =>
      peer.listen(0, "127.0.0.1", () => resolve((peer.address() as { port: number }).port)),
    );
    const client = connectClient(SlowClientCtor, `127.0.0.1:${port}`, { deadlineMs: 500 });
    try {
      const started = Date.now();
      await callUnary(client, "wait", { ms: 1 }).catch(() => undefined);
      // grpc-js's own back-off waits 1, 1.6, 2.56, then 4.1 s (±20 % each): by 14 s a gap of at
      // least 3.3 s has passed. Capped, no gap exceeds the cap and its jitter.
      await new Promise((resolve) => setTimeout(resolve, 14_000 - (Date.now() - started)));
      const gaps = attempts.slice(1).map((at, index) => at - (attempts[index] as number));
      expect(attempts.length).toBeGreaterThanOrEqual(6);
      expect(Math.max(...gaps)).toBeLessThanOrEqual(RECONNECT_BACKOFF_MAX_MS * 1.2 + 300);
    } finally {
      client.close();
      peer.close();
    }
  }, 25_000);
});
