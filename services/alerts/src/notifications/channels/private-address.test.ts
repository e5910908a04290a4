import { describe, expect, it } from "vitest";
import { isAddressLiteral, isPublicAddress } from "./private-address.ts";

describe("isPublicAddress", () => {
  it.each([
    "93.184.216.34",
    "8.8.8.8",
    "1.1.1.1",
    "2606:4700:4700::1111",
    "2a00:1450:4001:80b::200e",
    "[2606:4700:4700::1111]",
    "::ffff:93.184.216.34",
  ])("accepts the public address %s", (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each([
    ["loopback", "127.0.0.1"],
    ["loopback, not .1", "127.10.20.30"],
    ["RFC 1918 10/8", "10.1.2.3"],
    ["RFC 1918 172.16/12", "172.16.0.1"],
    ["RFC 1918 172.31", "172.31.255.255"],
    ["RFC 1918 192.168/16", "192.168.1.1"],
    ["link-local (cloud metadata)", "169.254.169.254"],
    ["carrier-grade NAT", "100.64.0.1"],
    ["this network 0/8", "0.0.0.0"],
    ["this network 0/8, not 0", "0.1.2.3"],
    ["broadcast", "255.255.255.255"],
    ["multicast", "224.0.0.1"],
    ["documentation", "192.0.2.1"],
    ["benchmarking", "198.18.0.1"],
    ["IETF protocol assignments", "192.0.0.8"],
    ["reserved 240/4", "240.0.0.1"],
    ["IPv6 loopback", "::1"],
    ["IPv6 loopback in brackets", "[::1]"],
    ["IPv6 unspecified", "::"],
    ["IPv6 unique-local fc00::/7", "fd12:3456:789a::1"],
    ["IPv6 unique-local fc00", "fc00::1"],
    ["IPv6 link-local", "fe80::1"],
    ["IPv6 link-local with zone", "fe80::1%eth0"],
    ["IPv6 site-local (deprecated)", "fec0::1"],
    ["IPv6 multicast", "ff02::1"],
    ["IPv4-mapped loopback", "::ffff:127.0.0.1"],
    ["IPv4-mapped loopback, hex form", "::ffff:7f00:1"],
    ["IPv4-mapped private", "::ffff:10.0.0.1"],
    ["IPv4-mapped metadata", "[::ffff:169.254.169.254]"],
    ["IPv4-compatible (deprecated) loopback", "::127.0.0.1"],
    ["NAT64 of a private address", "64:ff9b::a00:1"],
    ["6to4 of loopback", "2002:7f00:1::1"],
    ["Teredo", "2001:0:4136:e378:8000:63bf:3fff:fdd2"],
    ["IPv6 documentation", "2001:db8::1"],
    ["discard-only", "100::1"],
  ])("refuses %s (%s)", (_label, address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(["", "localhost", "example.com", "999.1.1.1", "1.2.3", "http://1.2.3.4/", "::ffff:999.0.0.1"])(
    "refuses %j, which is not an address",
    (text) => {
      expect(isPublicAddress(text)).toBe(false);
    },
  );
});

describe("isAddressLiteral", () => {
  it("tells addresses from names", () => {
    expect(isAddressLiteral("127.0.0.1")).toBe(true);
    expect(isAddressLiteral("[::1]")).toBe(true);
    expect(isAddressLiteral("::ffff:10.0.0.1")).toBe(true);
    expect(isAddressLiteral("hooks.slack.com")).toBe(false);
    expect(isAddressLiteral("localhost")).toBe(false);
  });
});
