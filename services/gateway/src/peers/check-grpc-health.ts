import { type Client, makeGenericClientConstructor, type ServiceDefinition } from "@grpc/grpc-js";
import { callUnary, connectClient, type UnaryMethod } from "@pulsegate/grpc";
import { service as healthService } from "grpc-health-check";

type HealthClient = Client & { check: UnaryMethod<{ service: string }, { status?: string }> };

const HealthClientCtor = makeGenericClientConstructor(
  healthService as unknown as ServiceDefinition,
  "grpc.health.v1.Health",
) as unknown as Parameters<typeof connectClient<HealthClient>>[0];

/** A grpc.health.v1 client for one peer; `check` never rejects. */
export function createHealthChecker(address: string, deadlineMs: number) {
  const client = connectClient(HealthClientCtor, address, { deadlineMs });
  return {
    /** True when the peer answers SERVING for `service` within `timeoutMs` (the probe's own bound). */
    check: (service: string, timeoutMs: number): Promise<boolean> =>
      callUnary(client, "check", { service }, { deadlineMs: timeoutMs }).then(
        (response) => response.status === "SERVING",
        () => false,
      ),
    close: () => client.close(),
  };
}

export type HealthChecker = ReturnType<typeof createHealthChecker>;
