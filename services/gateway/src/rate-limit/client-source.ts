import ipaddr from "ipaddr.js";

/**
 * What a client address is counted as: an IPv4 address as itself (an IPv4-mapped IPv6 one as the
 * IPv4 address it maps), an IPv6 address by its /64, the block one subscriber or site is given:
 * counted one by one, each of its 2^64 addresses would have a fresh count. Text that is not an
 * address (never, from Fastify's request.ip) is counted as itself.
 */
export function clientSource(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv4") return parsed.toString();
  const network = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${network.join(":")}::/64`;
}
