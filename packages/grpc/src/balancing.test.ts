// A client spreads its calls over every replica of a service, and servers age connections
// out so clients find replicas started after them. Real grpc-js servers and clients on loopback.
import { makeGenericClientConstructor, type ServiceDefinition } from "@grpc/grpc-js";
import { afterEach, describe, expect, it } from "vitest";
import { callUnary, connectClient, type UnaryMethod } from "./client.ts";
import { createGrpcServer, type GrpcServer } from "./create-server.ts";
import { jsonMethod } from "./testing/json-method.ts";

const definition: ServiceDefinition = { whoAmI: jsonMethod("/test.Replica/WhoAmI") };
type ReplicaClient = InstanceType<ReturnType<typeof makeGenericClientConstructor>> & {
  whoAmI: UnaryMethod<Record<string, never>, { replica: string }>;
};
const ReplicaClientCtor = makeGenericClientConstructor(definition, "Replica") as unknown as Parameters<
  typeof connectClient<ReplicaClient>
>[0];

type Replica = { server: GrpcServer; port: number; peers: Set<string> };
const started: Replica[] = [];
const clients: ReplicaClient[] = [];

/** A replica answering its own name, remembering each client connection (peer address) it served. */
async function replica(name: string, maxConnectionAgeMs?: number): Promise<Replica> {
  const peers = new Set<string>();
  const server = createGrpcServer(
    [
      {
        name: "test.Replica",
        definition,
        implementation: {
          whoAmI: (call: { getPeer(): string }, callback: (error: null, response: { replica: string }) => void) => {
            peers.add(call.getPeer());
            callback(null, { replica: name });
          },
        },
      },
    ],
    { maxConnectionAgeMs },
  );
  const port = await server.listen("127.0.0.1:0");
  const running = { server, port, peers };
  started.push(running);
  return running;
}

function client(target: string) {
  const connected = connectClient(ReplicaClientCtor, target, { deadlineMs: 2_000 });
  clients.push(connected);
  return connected;
}

afterEach(async () => {
  for (const connected of clients.splice(0)) connected.close();
  await Promise.all(started.splice(0).map((r) => r.server.close(100)));
});

describe("balancing over replicas", () => {
  it("one client's calls land on every replica of the target, in turn", async () => {
    const [a, b] = [await replica("a"), await replica("b")];
    const both = client(`ipv4:127.0.0.1:${a.port},127.0.0.1:${b.port}`);
    const answered: string[] = [];
    for (let i = 0; i < 20; i++) answered.push((await callUnary(both, "whoAmI", {})).replica);
    const count = (name: string) => answered.filter((replicaName) => replicaName === name).length;
    // pick_first would send all 20 to one of them.
    expect(count("a")).toBeGreaterThanOrEqual(8);
    expect(count("b")).toBeGreaterThanOrEqual(8);
  });

  it("a replica that stops leaves the calls to the other, with none failing once it is gone", async () => {
    const [a, b] = [await replica("a"), await replica("b")];
    const both = client(`ipv4:127.0.0.1:${a.port},127.0.0.1:${b.port}`);
    for (let i = 0; i < 4; i++) await callUnary(both, "whoAmI", {});
    await a.server.close(100);
    const answered: string[] = [];
    for (let i = 0; i < 10; i++) answered.push((await callUnary(both, "whoAmI", {})).replica);
    expect(answered).toEqual(Array(10).fill("b"));
  });

  it("a server ages its connections out, and calls keep succeeding over the new ones", async () => {
    const only = await replica("aged", 1_000);
    const connected = client(`127.0.0.1:${only.port}`);
    const deadline = Date.now() + 3_500;
    let calls = 0;
    while (Date.now() < deadline) {
      expect((await callUnary(connected, "whoAmI", {})).replica).toBe("aged");
      calls++;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(calls).toBeGreaterThan(20);
    // A new connection (a new client port) after each age: the client re-resolved and reconnected.
    expect(only.peers.size).toBeGreaterThanOrEqual(2);
  });
});
