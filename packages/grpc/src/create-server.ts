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
  /**
   * Binds and starts; resolves to the bound port (0 binds a free one). From then on the services
   * it serves (given here or to `serve`) report SERVING, and so does "" (the overall status) once
   * there is at least one.
   */
  listen: (address: string) => Promise<number>;
  /** Adds services, SERVING at once if it listens already (a service that waited for its schema). */
  serve: (services: ServiceBinding[]) => void;
  /** Marks NOT_SERVING, lets in-flight calls finish (bounded), then stops. */
  close: (graceMs?: number) => Promise<void>;
};

/**
 * The grpc.health.v1 service name that reports whether the process answers at all: SERVING from
 * the start until it stops, while "" (the overall status) says whether it is ready to serve. A
 * liveness or start-up probe asks this one, so a process waiting for its schema is not restarted
 * for being unready.
 */
export const LIVENESS_SERVICE = "liveness";

/**
 * How long a client connection may live before the server asks the client to reconnect (GOAWAY), and
 * how long calls already under way then have to finish. Clients balance per call over every address
 * of a service (client.ts), but only over the addresses they know: re-connecting makes them resolve
 * the Service again, so replicas started since (a rollout, the autoscaler) get calls within minutes.
 * The grace outlasts the longest deadline of any call (the KEK re-seal's 120 s).
 */
export const MAX_CONNECTION_AGE_MS = 5 * 60_000;
export const MAX_CONNECTION_AGE_GRACE_MS = 150_000;

export type GrpcServerOptions = {
  /** Overrides MAX_CONNECTION_AGE_MS (GRPC_MAX_CONNECTION_AGE_MS in every service's configuration). */
  maxConnectionAgeMs?: number;
};

export function createGrpcServer(services: ServiceBinding[], options: GrpcServerOptions = {}): GrpcServer {
  const server = new Server({
    "grpc.keepalive_permit_without_calls": 1,
    "grpc.max_receive_message_length": 8 * 1024 * 1024,
    "grpc.max_connection_age_ms": options.maxConnectionAgeMs ?? MAX_CONNECTION_AGE_MS,
    "grpc.max_connection_age_grace_ms": MAX_CONNECTION_AGE_GRACE_MS,
  });
  const health = new HealthImplementation({ "": "NOT_SERVING", [LIVENESS_SERVICE]: "SERVING" });
  health.addToServer(server);
  const served: ServiceBinding[] = [];
  let listening = false;
  let closing = false;

  const report = () => {
    const status = listening && !closing ? "SERVING" : "NOT_SERVING";
    health.setStatus("", served.length > 0 ? status : "NOT_SERVING");
    for (const service of served) health.setStatus(service.name, status);
  };
  const serve = (bindings: ServiceBinding[]) => {
    for (const service of bindings) {
      server.addService(service.definition, service.implementation);
      served.push(service);
    }
    report();
  };
  serve(services);

  return {
    server,
    health,
    listen: (address) =>
      new Promise((resolve, reject) => {
        server.bindAsync(address, ServerCredentials.createInsecure(), (error, port) => {
          if (error) return reject(error);
          listening = true;
          report();
          resolve(port);
        });
      }),
    serve,
    close: (graceMs = 10_000) =>
      new Promise<void>((resolve) => {
        closing = true;
        report();
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
