import type { FastifyInstance } from "fastify";

/**
 * GET / (HEAD too): 302 to /dashboard. Nothing else answers at the root — the API lives under
 * /api, /admin/v1 and the probes' paths — and a person who opens the gateway's address wants the
 * dashboard. 302, not 301: a browser caches a 301 for good, and the root may mean more one day.
 */
export async function rootRedirect(app: FastifyInstance): Promise<void> {
  // A web page, not part of the API: kept out of /openapi.json as the dashboard's pages are.
  app.get("/", { schema: { hide: true } }, async (_request, reply) => reply.redirect("/dashboard", 302));
}
