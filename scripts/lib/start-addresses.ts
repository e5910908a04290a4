import { isIPv6 } from "node:net";

/** Unless told otherwise, `npm start` listens on this machine only. */
const LOOPBACK = "127.0.0.1";

/**
 * Where `npm start` has its processes listen. It prints the admin token and, without SECRET_KEK,
 * seals with the public development key, so nothing listens beyond this machine unless the
 * environment says so: HOST for the gateway, `*_GRPC_ADDR` for the gRPC listeners (each service
 * listens where the others dial it). `reachAt` is the host the banner and the readiness probe use.
 */
export function startAddresses(env: NodeJS.ProcessEnv) {
  const host = env.HOST || LOOPBACK;
  const everyInterface = host === "0.0.0.0" || host === "::";
  return {
    host,
    reachAt: everyInterface ? LOOPBACK : isIPv6(host) ? `[${host}]` : host,
    grpc: {
      AUTH_GRPC_ADDR: env.AUTH_GRPC_ADDR ?? `${LOOPBACK}:50051`,
      ALERTS_GRPC_ADDR: env.ALERTS_GRPC_ADDR ?? `${LOOPBACK}:50052`,
      MONITORS_GRPC_ADDR: env.MONITORS_GRPC_ADDR ?? `${LOOPBACK}:50053`,
      AUTH_SIGNING_GRPC_ADDR: env.AUTH_SIGNING_GRPC_ADDR ?? `${LOOPBACK}:50054`,
    },
  };
}
