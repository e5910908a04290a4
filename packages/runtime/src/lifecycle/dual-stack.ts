import { createServer } from "node:net";

/** What socket() says where the kernel has no IPv6 (booted with ipv6.disable=1, or a sandbox refusing it). */
const NO_IPV6 = new Set(["EAFNOSUPPORT", "EPROTONOSUPPORT"]);

/**
 * Whether this machine can listen on IPv6's unspecified address (`::`): binding it to a free
 * port and closing again. Any failure but a missing address family counts as available, so the
 * real bind reports it.
 */
export function ipv6Available(): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", (error: NodeJS.ErrnoException) => resolve(!NO_IPV6.has(error.code ?? "")));
    probe.listen({ host: "::", port: 0 }, () => probe.close(() => resolve(true)));
  });
}

/**
 * Where to listen for `address`: unchanged, unless it names every interface the IPv6 way (`::`
 * as a host, `[::]:port` as a gRPC address) on a machine without IPv6, which gets `0.0.0.0`
 * (said once, at warn). Node and grpc-js listen on `::` dual-stack (IPv6 and IPv4 alike), so
 * `::` suits IPv4-only, IPv6-only and dual-stack clusters; only a kernel without IPv6 cannot.
 */
export async function dualStackOrIpv4(
  address: string,
  log: { warn: (obj: object, msg: string) => void },
  available: () => Promise<boolean> = ipv6Available,
): Promise<string> {
  const ipv4 = address === "::" ? "0.0.0.0" : address.startsWith("[::]:") ? `0.0.0.0:${address.slice(5)}` : undefined;
  if (ipv4 === undefined || (await available())) return address;
  log.warn({ address, listening: ipv4 }, "IPv6 is not available on this machine: listening on IPv4 only");
  return ipv4;
}
