import type { FastifyInstance } from "fastify";
import { errors } from "../../errors.ts";
import type { Peers } from "../../peers/connect-peers.ts";
import { createAdminTokenCheck } from "./admin-token.ts";
import { alertRoutes } from "./alert-routes.ts";
import { channelRoutes } from "./channel-routes.ts";
import { monitorRoutes } from "./monitor-routes.ts";
import { teamRoutes } from "./team-routes.ts";
import { webhookRoutes } from "./webhook-routes.ts";

export type AdminRoutesOptions = { peers: Peers; adminToken: string; publicBaseUrl?: string | undefined };

/** The admin API (DESIGN §7), registered under /admin/v1. */
export async function adminRoutes(app: FastifyInstance, options: AdminRoutesOptions): Promise<void> {
  const isAdmin = createAdminTokenCheck(options.adminToken);

  // JSON only: a text/plain body would otherwise reach the schemas as a string.
  app.removeContentTypeParser("text/plain");

  // onRequest runs before the body is read, so strangers get 401 whatever they send.
  app.addHook("onRequest", async (request, reply) => {
    // Some answers carry a secret; none of them is worth caching.
    reply.header("cache-control", "no-store");
    if (!isAdmin(request.headers.authorization)) throw errors.unauthorized();
  });
  // A POST without a body is an empty object, so the schemas report missing fields.
  app.addHook("preValidation", async (request) => {
    if (request.body === undefined) request.body = {};
  });

  await app.register(teamRoutes, { peers: options.peers });
  await app.register(webhookRoutes, { peers: options.peers, publicBaseUrl: options.publicBaseUrl });
  await app.register(alertRoutes, { peers: options.peers });
  await app.register(monitorRoutes, { peers: options.peers, publicBaseUrl: options.publicBaseUrl });
  await app.register(channelRoutes, { peers: options.peers });
}
