// grpc.health.v1 as a probe sees it: "liveness" answers SERVING whenever the process does; ""
// (readiness) only once services are served, so a process that listens before it can serve (it
// waits for its schema) is alive and not ready. Real server and client on loopback.
import { makeGenericClientConstructor, type ServiceDefinition } from "@grpc/grpc-js";
import { service as healthService } from "grpc-health-check";
import { afterEach, describe, expect, it } from "vitest";
import { callUnary, connectClient, type DeadlineClient, type UnaryMethod } from "./client.ts";
import { createGrpcServer, type GrpcServer, LIVENESS_SERVICE } from "./create-server.ts";
import { jsonMethod } from "./testing/json-method.ts";

type HealthClient = InstanceType<ReturnType<typeof makeGenericClientConstructor>> & {
  check: UnaryMethod<{ service: string }, { status?: string }>;
};
const HealthClientCtor = makeGenericClientConstructor(
  healthService as unknown as ServiceDefinition,
  "grpc.health.v1.Health",
) as unknown as Parameters<typeof connectClient<HealthClient>>[0];

const echo = {
  name: "test.Echo",
  definition: { echo: jsonMethod("/test.Echo/Echo") } as ServiceDefinition,
  implementation: { echo: (_call: unknown, callback: (error: null, response: object) => void) => callback(null, {}) },
};

let server: GrpcServer | undefined;
let client: DeadlineClient<HealthClient> | undefined;
afterEach(async () => {
  client?.close();
  await server?.close(100);
});

async function statuses(): Promise<Record<string, string>> {
  const ask = (service: string) =>
    callUnary(client as DeadlineClient<HealthClient>, "check", { service }).then(
      (response) => response.status ?? "",
      (error: { code: number }) => `error ${error.code}`,
    );
  const [ready, live, echoed] = await Promise.all([ask(""), ask(LIVENESS_SERVICE), ask("test.Echo")]);
  return { ready, live, echo: echoed };
}

describe("createGrpcServer's health", () => {
  it("is live but not ready while listening with nothing served, ready once its services are", async () => {
    server = createGrpcServer([]);
    const port = await server.listen("127.0.0.1:0");
    client = connectClient(HealthClientCtor, `127.0.0.1:${port}`, { deadlineMs: 2_000 });
    // 5: NOT_FOUND, the service is not known yet.
    expect(await statuses()).toEqual({ ready: "NOT_SERVING", live: "SERVING", echo: "error 5" });
    server.serve([echo]);
    expect(await statuses()).toEqual({ ready: "SERVING", live: "SERVING", echo: "SERVING" });
  });

  it("serves what it was given as soon as it listens", async () => {
    server = createGrpcServer([echo]);
    const port = await server.listen("127.0.0.1:0");
    client = connectClient(HealthClientCtor, `127.0.0.1:${port}`, { deadlineMs: 2_000 });
    expect(await statuses()).toEqual({ ready: "SERVING", live: "SERVING", echo: "SERVING" });
  });
});
