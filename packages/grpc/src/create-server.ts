import { Server, ServerCredentials, type ServiceDefinition, type UntypedServiceImplementation } from "@grpc/grpc-js";
import { HealthImplementation } from "grpc-health-check";

export type ServiceBinding = {
  /** Fully qualified name, e.g. "auth.v1.AuthService", reported by grpc.health.v1. */
  name: string;
  definition: ServiceDefinition;
  implementation: UntypedServiceImplementation;
};

export type GrpcServer = {
  server: Server;
  health: HealthImplementation;
  /** Binds and starts; resolves to the bound port (0 binds a free one). */
  listen: (address: string) => Promise<number>;
  /** Marks NOT_SERVING, lets in-flight calls finish (bounded), then stops. */
  close: (graceMs?: number) => Promise<void>;
};

export function createGrpcServer(services: ServiceBinding[]): GrpcServer {
  const server = new Server({
    "grpc.keepalive_permit_without_calls": 1,
    "grpc.max_receive_message_length": 8 * 1024 * 1024,
  });
  const health = new HealthImplementation({ "": "NOT_SERVING" });
  for (const service of services) {
    server.addService(service.definition, service.implementation);
    health.setStatus(service.name, "NOT_SERVING");
  }
  health.addToServer(server);

  const setAll = (value: "SERVING" | "NOT_SERVING") => {
    health.setStatus("", value);
    for (const service of services) health.setStatus(service.name, value);
  };

  return {
    server,
    health,
    listen: (address) =>
      new Promise((resolve, reject) => {
        server.bindAsync(address, ServerCredentials.createInsecure(), (error, port) => {
          if (error) return reject(error);
          setAll("SERVING");
          resolve(port);
        });
      }),
    close: (graceMs = 10_000) =>
      new Promise<void>((resolve) => {
        setAll("NOT_SERVING");
        const force = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, graceMs);
        force.unref();
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      }),
  };
}
