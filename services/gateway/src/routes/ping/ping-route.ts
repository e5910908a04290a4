import { status } from "@grpc/grpc-js";
import { callUnary } from "@pulsegate/grpc";
import { monitors } from "@pulsegate/proto";
import type { FastifyInstance } from "fastify";
import { errors } from "../../errors.ts";
import { isGrpcError } from "../../grpc-status-to-http.ts";
import type { Peers } from "../../peers/connect-peers.ts";
import { createLookupCache } from "../../pipeline/lookup-cache.ts";
import { requireSignature } from "../../pipeline/require-signature.ts";

export type PingRouteOptions = { peers: Peers; monitorCacheMs: number };

/**
 * POST|GET /api/ping/:pingUrl — DESIGN §2 ping steps. Steps 1 and 2 are in
 * place; steps 3–7 (verify, subscription, 10/min limit, body, RecordPing)
 * belong to the monitors work, so until then every ping that passes step 2
 * is answered with the same 404 as an unknown monitor.
 */
export async function pingRoute(app: FastifyInstance, options: PingRouteOptions): Promise<void> {
  const { peers } = options;
  const monitorsByPingUrl = createLookupCache<monitors.Monitor | undefined>({
    ttlMs: options.monitorCacheMs,
    load: async (pingUrl) => {
      try {
        return (await callUnary(peers.monitors, peers.monitors.resolveMonitor, { pingUrl }, peers.timeoutMs)).monitor;
      } catch (error) {
        // A monitors service that does not implement ResolveMonitor yet has no monitors.
        if (isGrpcError(error) && error.code === status.UNIMPLEMENTED) return undefined;
        throw error;
      }
    },
  });

  app.route<{ Params: { pingUrl: string } }>({
    method: ["GET", "POST"],
    url: "/api/ping/:pingUrl",
    handler: async (request) => {
      requireSignature(request);

      const monitor = await monitorsByPingUrl.get(request.params.pingUrl);
      if (!monitor || monitor.status === monitors.MonitorStatus.MONITOR_STATUS_PAUSED) {
        throw errors.monitorNotFound();
      }

      // Steps 3–7: not built yet (monitors issue).
      throw errors.monitorNotFound();
    },
  });
}
