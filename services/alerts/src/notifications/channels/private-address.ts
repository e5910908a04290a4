import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * True only for a globally routable unicast address: the one kind a
 * notification may be sent to. Loopback, private (RFC 1918), unique-local,
 * link-local, carrier-grade NAT, 0.0.0.0/8, multicast, documentation and
 * other special-purpose ranges are not. IPv4-mapped IPv6 (::ffff:a.b.c.d) is
 * judged as the IPv4 address it maps; IPv6 outside 2000::/3 and the
 * translation prefixes (NAT64, 6to4, Teredo) that can reach IPv4 addresses
 * indirectly are refused too. Text that is not an address is not public.
 */
export function isPublicAddress(address: string): boolean {
  const text = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address;
  // Zone ids (fe80::1%eth0) only exist on link-local addresses.
  if (text.includes("%")) return false;
  // Canonical forms only (net.isIP), as sockets and DNS answers use them.
  if (isIP(text) === 0) return false;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(text);
  } catch {
    return false;
  }
  if (parsed.kind() === "ipv6" && !(parsed as ipaddr.IPv6).match(GLOBAL_UNICAST_V6)) return false;
  return parsed.range() === "unicast";
}

/** 2000::/3, the only IPv6 space allocated for global unicast. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3") as [ipaddr.IPv6, number];

/**
 * True when `host` is an IP address literal (IPv6 with or without brackets):
 * a socket connects to it without any DNS lookup, so it is checked as is.
 */
export function isAddressLiteral(host: string): boolean {
  const text = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  return isIP(text) !== 0;
}
