import type { monitors } from "@pulsegate/proto";
import type { FastifyInstance } from "fastify";
import { HttpError } from "../../errors.ts";
import { monitorStatusJson } from "../../json-vocabulary.ts";
import { errorResponse } from "../../openapi/error-responses.ts";
import type { Peers } from "../../peers/connect-peers.ts";
import { lookupBadge } from "../../peers/look-ups.ts";
import { createLookupCache, type LookupCache } from "../../pipeline/lookup-cache.ts";
import { isUrlToken } from "../../pipeline/url-token.ts";
import { BADGE_SECURITY_HEADERS } from "../../security-headers.ts";
import { badgeSvg } from "./badge-svg.ts";

const badgeNotFound = () => new HttpError("badge_not_found");

/**
 * GET /badge/:token.svg — a monitor's status as an SVG badge, for a README or
 * a wiki. No credentials: the token is the monitor's badge token (192 random
 * bits, unrelated to its ping URL), so the badge shows a name and a status and
 * nothing else can be done with it. Look-ups are kept a few seconds (createBadgeLookup).
 */
export async function badgeRoute(
  app: FastifyInstance,
  options: { badges: LookupCache<monitors.Monitor | undefined> },
): Promise<void> {
  const { badges } = options;
  app.get<{ Params: { file: string } }>(
    "/badge/:file",
    {
      exposeHeadRoute: false,
      schema: {
        tags: ["public"],
        summary: "A monitor's status badge (SVG)",
        description:
          "Public and read-only: the path is the monitor's badgeUrl from the admin API. Shows the monitor's name and status (up, down, idle, paused).",
        params: {
          type: "object",
          required: ["file"],
          properties: { file: { type: "string", description: "The badge token followed by .svg." } },
        },
        response: {
          200: { description: "The badge.", content: { "image/svg+xml": { schema: { type: "string" } } } },
          404: errorResponse("No monitor has that badge.", ["badge_not_found"]),
        },
      },
    },
    async (request, reply) => {
      const { file } = request.params;
      if (!file.endsWith(".svg")) throw badgeNotFound();
      const monitor = await badges.get(file.slice(0, -".svg".length));
      if (!monitor) throw badgeNotFound();
      return reply
        .header("content-type", "image/svg+xml; charset=utf-8")
        .header("cache-control", "no-cache, max-age=0")
        .headers(BADGE_SECURITY_HEADERS)
        .send(badgeSvg(monitor.name, monitorStatusJson(monitor.status) ?? "unknown"));
    },
  );
}

/**
 * Badge look-ups' answers (found or not), kept `ttlMs` (WEBHOOK_CACHE_MS); a monitor changed or
 * deleted through any replica drops its entry at once (team-changes.ts).
 */
export function createBadgeLookup(peers: Peers, ttlMs: number): LookupCache<monitors.Monitor | undefined> {
  return createLookupCache<monitors.Monitor | undefined>({
    ttlMs,
    load: async (token) => (isUrlToken(token) ? lookupBadge(peers, token) : undefined),
  });
}
