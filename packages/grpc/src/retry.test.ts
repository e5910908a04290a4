// A call whose replica dies under it is sent again to another replica when it is a read
// (idempotent-methods.ts), and never when it is a write, which that replica may have applied. Real
// grpc-js servers and clients on loopback; a replica "dies" by having every connection to it reset
// while it holds the call, as a SIGKILL does.
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { makeGenericClientConstructor, type ServiceDefinition, type ServiceError, status } from "@grpc/grpc-js";
import { afterEach, describe, expect, it } from "vitest";
import { callUnary, connectClient, type DeadlineClient, type UnaryMethod } from "./client.ts";
import { createGrpcServer, type GrpcServer } from "./create-server.ts";
import { IDEMPOTENT_METHODS } from "./idempotent-methods.ts";
import { jsonMethod } from "./testing/json-method.ts";

// Two methods of the monitors service by their real names, one read and one write, over JSON.
const definition: ServiceDefinition = {
  getMonitor: jsonMethod("/monitors.v1.MonitorsService/GetMonitor"),
  recordPing: jsonMethod("/monitors.v1.MonitorsService/RecordPing"),
};
type Answer = { replica: string };
type MonitorsClient = InstanceType<ReturnType<typeof makeGenericClientConstructor>> & {
  getMonitor: UnaryMethod<Record<string, never>, Answer>;
  recordPing: UnaryMethod<Record<string, never>, Answer>;
};
const ClientCtor = makeGenericClientConstructor(definition, "MonitorsService") as unknown as Parameters<
  typeof connectClient<MonitorsClient>
>[0];

type Replica = { name: string; port: number; served: string[] };
const servers: GrpcServer[] = [];
const proxies: Server[] = [];
const clients: MonitorsClient[] = [];

/**
 * A replica behind a TCP proxy. `dies`: the first call it receives is never answered, and every
 * connection to it is reset instead (new ones refused), as when its process is killed mid-call.
 */
async function replica(name: string, dies: boolean): Promise<Replica> {
  const served: string[] = [];
  const sockets = new Set<Socket>();
  let dead = false;
  const handle = (called: string) => (_call: unknown, callback: (error: null, answer: Answer) => void) => {
    if (dies && !dead) {
      dead = true;
      served.push(`${called} (died)`);
      for (const socket of sockets) socket.resetAndDestroy();
      return;
    }
    served.push(called);
    callback(null, { replica: name });
  };
  const server = createGrpcServer([
    {
      name: "monitors.v1.MonitorsService",
      definition,
      implementation: { getMonitor: handle("GetMonitor"), recordPing: handle("RecordPing") },
    },
  ]);
  servers.push(server);
  const target = await server.listen("127.0.0.1:0");
  const front = await tcpFront(target, sockets, () => dead);
  return { name, port: front, served };
}

/** A TCP proxy to `target` whose sockets (both sides) are in `sockets`; refuses while `dead()`. */
async function tcpFront(target: number, sockets: Set<Socket>, dead: () => boolean): Promise<number> {
  const proxy = createServer((client) => {
    if (dead()) return client.resetAndDestroy();
    const upstream = createConnection({ host: "127.0.0.1", port: target });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  proxies.push(proxy);
  await new Promise<void>((done) => proxy.listen(0, "127.0.0.1", done));
  return (proxy.address() as { port: number }).port;
}

afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await Promise.all(servers.splice(0).map((server) => server.close(100)));
  for (const proxy of proxies.splice(0)) proxy.close();
});

/** A client of both replicas, after a call to each has made both connections ready. */
async function clientOf(a: Replica, b: Replica): Promise<DeadlineClient<MonitorsClient>> {
  const client = connectClient(ClientCtor, `ipv4:127.0.0.1:${a.port},127.0.0.1:${b.port}`, { deadlineMs: 5_000 });
  clients.push(client);
  await new Promise<void>((resolve, reject) =>
    client.waitForReady(Date.now() + 5_000, (error) => (error ? reject(error) : resolve())),
  );
  return client;
}

describe("calls whose replica dies under them", () => {
  it("a read is answered by the other replica", async () => {
    const [dying, healthy] = [await replica("dying", true), await replica("healthy", false)];
    const client = await clientOf(dying, healthy);
    // Round robin: one of the first two calls goes to the replica that dies with it.
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await callUnary(client, "getMonitor", {}));
    expect(dying.served).toEqual(["GetMonitor (died)"]);
    expect(answers.map((answer) => answer.replica)).toEqual(Array(4).fill("healthy"));
  });

  it("a write fails UNAVAILABLE, sent nowhere else: the replica may have applied it", async () => {
    const [dying, healthy] = [await replica("dying", true), await replica("healthy", false)];
    const client = await clientOf(dying, healthy);
    const outcomes: string[] = [];
    for (let i = 0; i < 4; i++) {
      const answer = await callUnary(client, "recordPing", {}).then(
        (ok) => ok.replica,
        (error: ServiceError) => (error.code === status.UNAVAILABLE ? "UNAVAILABLE" : `code ${error.code}`),
      );
      outcomes.push(answer);
    }
    expect(dying.served).toEqual(["RecordPing (died)"]);
    expect(outcomes.filter((outcome) => outcome === "UNAVAILABLE")).toHaveLength(1);
    // The healthy replica got every other call, and not the failed one a second time.
    expect(healthy.served).toEqual(Array(3).fill("RecordPing"));
  });

  it("the retried methods are methods of our services, and every Get, List and Describe is one", async () => {
    const { alerts, auth, monitors } = await import("@pulsegate/proto");
    const services = {
      "auth.v1.AuthService": auth.AuthServiceService,
      "alerts.v1.AlertsService": alerts.AlertsServiceService,
      "monitors.v1.MonitorsService": monitors.MonitorsServiceService,
    };
    for (const [service, definitionOf] of Object.entries(services)) {
      const names = Object.values(definitionOf).map((entry) => entry.path.split("/")[2] as string);
      const listed = IDEMPOTENT_METHODS[service] ?? [];
      expect(names, service).toEqual(expect.arrayContaining([...listed]));
      const reads = names.filter((name) => /^(Get|List|Describe|Preview)/.test(name));
      expect(listed, service).toEqual(expect.arrayContaining(reads));
      const writes = listed.filter((name) =>
        /^(Create|Update|Delete|Put|Record|Trigger|Acknowledge|Rotate|Revoke|Reseal|Retry|Pause|Resume)/.test(name),
      );
      expect(writes, service).toEqual([]);
    }
  });
});
