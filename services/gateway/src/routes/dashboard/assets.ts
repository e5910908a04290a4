import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { FastifyInstance } from "fastify";

const require = createRequire(import.meta.url);

type Asset = { body: Buffer; type: string; cacheControl: string };

const own = (name: string) => readFileSync(new URL(`./assets/${name}`, import.meta.url));

/** Files whose name changes with their content may be kept for a year; the others five minutes. */
const SHORT = "public, max-age=300";
const IMMUTABLE = "public, max-age=31536000, immutable";

const favicon = own("favicon.svg");

/**
 * The favicon's address, named by its content (so a changed icon is a new URL, and the old one may
 * be kept for good): every page links it (layout.ts).
 */
export const FAVICON_PATH = `/dashboard/assets/favicon.${createHash("sha256").update(favicon).digest("hex").slice(0, 12)}.svg`;

/** Loaded once at start-up: htmx from its package (no CDN), the rest from ./assets. */
function loadAssets(): Map<string, Asset> {
  return new Map([
    [
      "htmx.min.js",
      {
        body: readFileSync(require.resolve("htmx.org/dist/htmx.min.js")),
        type: "text/javascript; charset=utf-8",
        cacheControl: SHORT,
      },
    ],
    ["dashboard.js", { body: own("dashboard.js"), type: "text/javascript; charset=utf-8", cacheControl: SHORT }],
    ["dashboard.css", { body: own("dashboard.css"), type: "text/css; charset=utf-8", cacheControl: SHORT }],
    [FAVICON_PATH.split("/").at(-1) as string, { body: favicon, type: "image/svg+xml", cacheControl: IMMUTABLE }],
  ]);
}

export function serveAssets(app: FastifyInstance): void {
  const assets = loadAssets();
  app.get<{ Params: { name: string } }>("/dashboard/assets/:name", async (request, reply) => {
    const asset = assets.get(request.params.name);
    if (!asset) return reply.code(404).type("text/plain; charset=utf-8").send("Not found");
    return reply.header("cache-control", asset.cacheControl).type(asset.type).send(asset.body);
  });
}
