import { lookup } from "node:dns/promises";
import type { FieldProblem } from "@pulsegate/contract/errors";
import { CHANNEL_LIMITS } from "@pulsegate/contract/limits";
import { isAddressLiteral, isPublicAddress } from "./private-address.ts";

export type ResolveAll = (hostname: string) => Promise<{ address: string }[]>;

const resolveAll: ResolveAll = (hostname) => lookup(hostname, { all: true, verbatim: true });

/** The host of a URL without IPv6 brackets, as sockets and DNS take it. */
export function bareHost(url: URL): string {
  return url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * Checks a channel URL when it is saved: http or https, no credentials in it,
 * and — unless private networks are allowed — a host that is not, and does
 * not resolve to, a loopback, private or link-local address. Delivery checks
 * the resolved addresses again (DNS can change); this check exists so that a
 * mistake is reported to whoever makes it. The URL is never echoed back: it
 * is a secret.
 */
export async function checkChannelUrl(
  raw: string,
  options: { allowPrivateNetworks: boolean; resolve?: ResolveAll; field?: string },
): Promise<{ url: string } | { error: FieldProblem }> {
  const field = options.field ?? "url";
  const fail = (message: string) => ({ error: { field, message } });
  const text = raw.trim();
  if (text === "") return fail("url is required.");
  if (text.length > CHANNEL_LIMITS.urlMaxLength) {
    return fail(`url must be at most ${CHANNEL_LIMITS.urlMaxLength} characters.`);
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return fail("url must be an absolute http or https URL.");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return fail("url must use http or https.");
  if (url.username !== "" || url.password !== "") return fail("url must not contain a user name or password.");
  if (url.hostname === "") return fail("url must name a host.");
  if (options.allowPrivateNetworks) return { url: url.toString() };

  const host = bareHost(url);
  const privateMessage =
    "url points to a loopback, private or link-local address; notifications go to public addresses only.";
  if (isAddressLiteral(host)) return isPublicAddress(host) ? { url: url.toString() } : fail(privateMessage);
  let addresses: { address: string }[];
  try {
    addresses = await (options.resolve ?? resolveAll)(host);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ENOTFOUND" || code === "ENODATA") return fail("url names a host that does not resolve.");
    // A passing DNS failure is no reason to refuse; delivery checks again.
    return { url: url.toString() };
  }
  if (addresses.some((entry) => !isPublicAddress(entry.address))) return fail(privateMessage);
  return { url: url.toString() };
}
