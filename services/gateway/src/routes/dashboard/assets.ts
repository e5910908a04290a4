import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { FastifyInstance } from "fastify";

const require = createRequire(import.meta.url);

type Asset = { body: Buffer; type: string };

/** Loaded once at start-up: htmx from its package (no CDN), the rest from ./assets. */
function loadAssets(): Map<string, Asset> {
  const own = (name: string) => readFileSync(new URL(`./assets/${name}`, import.meta.url));
  return new Map([
    [
      "htmx.min.js",
      { body: readFileSync(require.resolve("htmx.org/dist/htmx.min.js")), type: "text/javascript; charset=utf-8" },
    ],
    ["dashboard.js", { body: own("dashboard.js"), type: "text/javascript; charset=utf-8" }],
    ["dashboard.css", { body: own("dashboard.css"), type: "text/css; charset=utf-8" }],
  ]);
}

export function serveAssets(app: FastifyInstance): void {
  const assets = loadAssets();
  app.get<{ Params: { name: string } }>("/dashboard/assets/:name", async (request, reply) => {
    const asset = assets.get(request.params.name);
    if (!asset) return reply.code(404).type("text/plain; charset=utf-8").send("Not found");
    return reply.header("cache-control", "public, max-age=300").type(asset.type).send(asset.body);
  });
}
