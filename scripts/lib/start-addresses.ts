import { isIPv4, isIPv6 } from "node:net";

/** Unless told otherwise, `npm start` listens on this machine only. */
const LOOPBACK = "127.0.0.1";

/** `npm start -- --replicas N`: at most this many of every service. */
export const MAX_REPLICAS = 8;
/** Replica i (from 0) of a gRPC service listens this many ports above replica 0, times i. */
export const REPLICA_PORT_STEP = 10;

type GrpcAddresses = {
  AUTH_GRPC_ADDR: string;
  ALERTS_GRPC_ADDR: string;
  MONITORS_GRPC_ADDR: string;
  AUTH_SIGNING_GRPC_ADDR: string;
};

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
    } satisfies GrpcAddresses,
  };
}

/**
 * N replicas of every gRPC service, as on the cluster: replica i listens on its base address's port
 * plus REPLICA_PORT_STEP·i (`listen(i)`), and every client dials all of them (`dial`, an `ipv4:` list
 * its round_robin balances over). One replica: the addresses as given. Several need IPv4 hosts.
 */
export function replicaAddresses(grpc: GrpcAddresses, replicas: number) {
  const shifted = (address: string, replica: number) => {
    const separator = address.lastIndexOf(":");
    const host = address.slice(0, separator);
    const port = Number(address.slice(separator + 1)) + REPLICA_PORT_STEP * replica;
    if (replicas > 1 && !isIPv4(host)) {
      throw new Error(`--replicas needs IPv4 gRPC addresses (an ipv4: list is dialled), got "${address}".`);
    }
    if (port > 65_535) throw new Error(`--replicas ${replicas}: ${address} leaves no port for replica ${replica + 1}.`);
    return `${host}:${port}`;
  };
  const each = (replica: number) =>
    Object.fromEntries(
      Object.entries(grpc).map(([name, address]) => [name, shifted(address, replica)]),
    ) as GrpcAddresses;
  const all = Array.from({ length: replicas }, (_, replica) => each(replica));
  const dial =
    replicas === 1
      ? grpc
      : (Object.fromEntries(
          Object.keys(grpc).map((name) => [
            name,
            `ipv4:${all.map((addresses) => addresses[name as keyof GrpcAddresses]).join(",")}`,
          ]),
        ) as GrpcAddresses);
  return { listen: (replica: number) => all[replica] as GrpcAddresses, dial };
}

/** `--replicas N` or `--replicas=N` from npm start's arguments (1 without it); a message when it is not 1–8. */
export function replicasFrom(args: string[]): { replicas: number } | { error: string } {
  const index = args.findIndex((arg) => arg === "--replicas" || arg.startsWith("--replicas="));
  if (index === -1) return { replicas: 1 };
  const arg = args[index] as string;
  const raw = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : args[index + 1];
  const replicas = Number(raw);
  if (!/^[0-9]+$/.test(raw ?? "") || replicas < 1 || replicas > MAX_REPLICAS) {
    return { error: `--replicas takes a whole number from 1 to ${MAX_REPLICAS}, got "${raw ?? ""}".` };
  }
  return { replicas };
}
