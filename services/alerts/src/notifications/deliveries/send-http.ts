import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import { Agent, request } from "undici";
import { bareHost } from "../channels/channel-url.ts";
import { isAddressLiteral, isPublicAddress } from "../channels/private-address.ts";

/** At most this much of a receiver's answer is read; the rest is dropped with the connection. */
export const MAX_RESPONSE_BYTES = 64 * 1024;

/** The destination is, or resolves to, an address notifications must not reach. */
export class PrivateAddressError extends Error {
  override name = "PrivateAddressError";
  readonly code = "ERR_PRIVATE_ADDRESS";
}

export type HttpAnswer = { statusCode: number; retryAfterMs: number | null };

export type HttpSender = {
  /** POSTs `body` to `url`; resolves with any HTTP answer, rejects when none came. Redirects are not followed. */
  post: (url: string, body: Buffer, headers: Record<string, string>) => Promise<HttpAnswer>;
  close: () => Promise<void>;
};

/**
 * A DNS lookup that refuses a name when any of its addresses is not public,
 * and hands the socket exactly the addresses it checked: the connection goes
 * where the check looked, so a name re-pointed between check and connect (DNS
 * rebinding) gains nothing.
 */
export function publicOnlyLookup(resolve: typeof dnsLookup = dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { family: options.family ?? 0, hints: options.hints ?? 0, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      const list = addresses as LookupAddress[];
      if (list.length === 0 || list.some((entry) => !isPublicAddress(entry.address))) {
        return callback(
          new PrivateAddressError("The host resolves to a loopback, private or link-local address."),
          "",
          0,
        );
      }
      if ((options as { all?: boolean }).all) {
        (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, list);
        return;
      }
      const first = list[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}

/**
 * Outbound HTTP for notifications, on one connection pool. Every attempt is
 * bounded: `timeoutMs` covers lookup, connect, headers and the (capped) read
 * of the answer. Unless private networks are allowed, address literals are
 * checked before connecting and names at lookup time.
 */
export function createHttpSender(options: { allowPrivateNetworks: boolean; timeoutMs: number }): HttpSender {
  const agent = new Agent({
    connect: {
      timeout: options.timeoutMs,
      ...(options.allowPrivateNetworks ? {} : { lookup: publicOnlyLookup() }),
    },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    keepAliveTimeout: 4_000,
  });
  return {
    post: async (url, body, headers) => {
      const parsed = new URL(url);
      if (parsed.protocol !== "https:" && parsed.protocol !== "http:") throw new Error("Only http and https are sent.");
      const host = bareHost(parsed);
      if (!options.allowPrivateNetworks && isAddressLiteral(host) && !isPublicAddress(host)) {
        throw new PrivateAddressError("The URL points to a loopback, private or link-local address.");
      }
      const response = await request(parsed, {
        dispatcher: agent,
        method: "POST",
        headers,
        body,
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      let received = 0;
      for await (const chunk of response.body) {
        received += (chunk as Buffer).length;
        if (received >= MAX_RESPONSE_BYTES) break;
      }
      return { statusCode: response.statusCode, retryAfterMs: parseRetryAfter(response.headers["retry-after"]) };
    },
    close: () => agent.close(),
  };
}

/** Retry-After in seconds or as an HTTP date, in milliseconds from now; null when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || text.trim() === "") return null;
  if (/^\d+$/.test(text.trim())) return Number(text.trim()) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/**
 * Why an attempt got no answer, in words safe to store and show: never the
 * URL (a secret) nor a library's message, which may contain it.
 */
export function describeSendError(error: unknown, timeoutMs: number): string {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    if (current instanceof PrivateAddressError) {
      return "refused: the destination is a loopback, private or link-local address";
    }
    const code = (current as { code?: unknown }).code;
    if (current.name === "TimeoutError" || code === "UND_ERR_CONNECT_TIMEOUT" || code === "UND_ERR_HEADERS_TIMEOUT") {
      return `timed out after ${timeoutMs} ms`;
    }
    if (code === "UND_ERR_BODY_TIMEOUT") return `timed out after ${timeoutMs} ms`;
    if (typeof code === "string" && code in SOCKET_ERRORS) return SOCKET_ERRORS[code] as string;
    current = current.cause;
  }
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" ? `request failed (${code})` : "request failed";
}

const SOCKET_ERRORS: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  EPIPE: "connection closed while sending",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host lookup failed temporarily",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ETIMEDOUT: "connection timed out",
  UND_ERR_SOCKET: "connection closed before an answer",
  CERT_HAS_EXPIRED: "TLS certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "TLS certificate is self-signed",
  SELF_SIGNED_CERT_IN_CHAIN: "TLS certificate chain is self-signed",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "TLS certificate could not be verified",
  ERR_TLS_CERT_ALTNAME_INVALID: "TLS certificate does not match the host",
};
