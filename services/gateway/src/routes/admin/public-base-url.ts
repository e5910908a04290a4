import type { FastifyRequest } from "fastify";

/**
 * The address callers reach the public endpoints at, for triggerUrl and
 * pingEndpoint: PUBLIC_BASE_URL when set (behind a TLS ingress the gateway
 * sees plain http), else the scheme and host the admin request came to.
 */
export function publicBaseUrl(request: FastifyRequest, configured: string | undefined): string {
  return configured ?? `${request.protocol}://${request.host}`;
}
