import type { IncomingMessage } from "node:http";

/**
 * What probes and scrapes ask: kubelet's probes, Prometheus' scrape, and the
 * gateway's own readiness checks of its peers. Traced, they were most of an
 * idle stack's traces (one span each, telling nobody anything): they create none.
 */
const PROBE_PATHS = new Set(["/healthz", "/readyz", "/metrics"]);

/**
 * gRPC health checking (grpc.health.v1.Health: kubelet's grpc probes, and
 * the gateway's /readyz asking its peers) and DescribeSpool, which /readyz
 * also asks monitors. The probe itself is not traced, so these calls would
 * arrive with no trace context and each start one at the peer.
 */
const HEALTH_METHODS = new Set(["Check", "Watch", "DescribeSpool"]);

export function isProbeRequest(request: Pick<IncomingMessage, "url">): boolean {
  const url = request.url ?? "";
  const end = url.search(/[?#]/);
  return PROBE_PATHS.has(end < 0 ? url : url.slice(0, end));
}

export function isHealthMethod(name: string): boolean {
  return HEALTH_METHODS.has(name);
}
