import type { FastifyRequest } from "fastify";
import { requirePresent } from "./require-present.ts";

/**
 * The address callers reach the public endpoints at, for triggerUrl and
 * pingEndpoint: PUBLIC_BASE_URL when set (behind a TLS ingress the gateway
 * sees plain http), else the scheme and host the admin request came to.
 */
export function publicBaseUrl(request: FastifyRequest, configured: string | undefined): string {
  return configured ?? `${request.protocol}://${request.host}`;
}

/**
 * For resources whose JSON carries public URLs (webhooks, monitors): the
 * resource a call answered with (`response[key]`, which must be there) and its
 * JSON on the host this request came to.
 */
export function answeredWithPublicUrls<Key extends string, Resource, Json>(
  key: Key,
  toJson: (resource: Resource, baseUrl: string) => Json,
  configured: string | undefined,
) {
  return (response: { [K in Key]?: Resource | undefined }, request: FastifyRequest) => {
    const resource = requirePresent<Resource>(response[key], key);
    return { resource, json: toJson(resource, publicBaseUrl(request, configured)) };
  };
}
