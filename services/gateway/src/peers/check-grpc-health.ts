import { type Client, credentials, makeGenericClientConstructor, type ServiceDefinition } from "@grpc/grpc-js";
import { service as healthService } from "grpc-health-check";

type HealthClient = Client & {
  check: (
    request: { service: string },
    options: { deadline: number },
    callback: (error: Error | null, response?: { status?: string }) => void,
  ) => void;
};

const HealthClientCtor = makeGenericClientConstructor(
  healthService as unknown as ServiceDefinition,
  "grpc.health.v1.Health",
) as unknown as new (
  address: string,
  creds: ReturnType<typeof credentials.createInsecure>,
) => HealthClient;

/** A grpc.health.v1 client for one peer; `check` never rejects. */
export function createHealthChecker(address: string) {
  const client = new HealthClientCtor(address, credentials.createInsecure());
  return {
    /** True when the peer answers SERVING for `service` within `timeoutMs`. */
    check: (service: string, timeoutMs: number): Promise<boolean> =>
      new Promise((resolve) => {
        client.check({ service }, { deadline: Date.now() + timeoutMs }, (error, response) =>
          resolve(!error && response?.status === "SERVING"),
        );
      }),
    close: () => client.close(),
  };
}

export type HealthChecker = ReturnType<typeof createHealthChecker>;
