import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { DOCS_SECURITY_HEADERS } from "../security-headers.ts";
import { adminComponents } from "./admin-components.ts";
import { OPERATION_IDS } from "./operation-ids.ts";
import { shareRepeatedResponses } from "./shared-responses.ts";

type Operation = {
  requestBody?: { required?: boolean; content?: Record<string, { schema?: { required?: unknown } }> };
};

/**
 * A body none of whose fields is required may be left out: the admin API reads a missing body as
 * `{}`, and a ping without a body is up. @fastify/swagger marks every body it documents required.
 */
function markOptionalBodies(document: { paths?: Record<string, Record<string, Operation>> }) {
  for (const pathItem of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(pathItem)) {
      const body = operation.requestBody;
      if (!body?.content) continue;
      const schemas = Object.values(body.content).map((media) => media.schema);
      if (schemas.every((schema) => !Array.isArray(schema?.required) || schema.required.length === 0)) {
        body.required = false;
      }
    }
  }
  return document;
}

/**
 * The OpenAPI 3.1 document, generated from the route schemas by @fastify/swagger and served at
 * GET /openapi.json, and a docs page at GET /docs (Swagger UI, its files served from the
 * package: no CDN, so it works offline). Must be registered before the routes it describes.
 * `publicBaseUrl` (PUBLIC_BASE_URL) becomes the document's one server.
 */
export function registerOpenApi(app: FastifyInstance, version: string, publicBaseUrl?: string): void {
  // Shared at the root so every route can $ref them; named by $id in the document.
  for (const schema of adminComponents) app.addSchema(schema);
  // Added before @fastify/swagger loads, so it runs before the plugin reads each route's schema.
  app.addHook("onRoute", (route) => {
    if (!route.schema || "operationId" in route.schema) return;
    for (const method of [route.method].flat()) {
      const operationId = OPERATION_IDS[`${method} ${route.url}`];
      if (operationId !== undefined) route.schema = { ...route.schema, operationId };
    }
  });
  app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      // Without PUBLIC_BASE_URL, Swagger UI and generators use the document's own origin.
      ...(publicBaseUrl ? { servers: [{ url: publicBaseUrl, description: "PUBLIC_BASE_URL" }] } : {}),
      info: {
        title: "Pulsegate",
        version,
        description:
          "Signed webhooks and heartbeat pings in, alerts and monitors out. The public endpoints are authenticated by an HMAC signature of the body; the admin API by a bearer token: the global admin token or a team API key.",
      },
      tags: [
        { name: "public", description: "Signed with the team's webhook secret (X-Webhook-Signature)." },
        {
          name: "integrations",
          description: "Other tools' own payloads (Prometheus Alertmanager), authorised by the webhook's bearer token.",
        },
        { name: "teams" },
        { name: "api keys", description: "Bearer tokens for the admin API, scoped to one team, read or write." },
        { name: "audit log" },
        { name: "webhooks" },
        { name: "alerts" },
        { name: "monitors" },
        { name: "notifications" },
        { name: "operations" },
      ],
      components: {
        securitySchemes: {
          bearerAuth: {
            type: "http",
            scheme: "bearer",
            description:
              "The admin token (everything), or a team API key `pgk_…`: its own team only (another team's resources answer 404), `read` keys GET only (403 otherwise); creating and listing teams, and changing a team's subscription or quotas, take the admin token (403).",
          },
        },
      },
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, index) =>
        typeof json.$id === "string" ? json.$id : `def-${index}`,
    },
    transformObject: (documentObject) =>
      shareRepeatedResponses(
        markOptionalBodies("openapiObject" in documentObject ? (documentObject.openapiObject as never) : {}) as never,
      ),
  });

  app.get(
    "/openapi.json",
    {
      schema: {
        tags: ["operations"],
        summary: "This document (OpenAPI 3.1)",
        response: { 200: { description: "The OpenAPI document.", type: "object" } },
      },
    },
    async () => app.swagger(),
  );
  // Every /docs response, the files @fastify/static serves included, gets the docs page's
  // headers. (The plugin's own staticCSP lets styles and fonts come from any https: origin and
  // the page be framed by this origin; this one is stricter and adds the rest.)
  app.register(async (docs) => {
    docs.addHook("onRequest", async (_request, reply) => {
      reply.headers(DOCS_SECURITY_HEADERS);
    });
    await docs.register(swaggerUi, {
      routePrefix: "/docs",
      // No calls to the public validator badge: the page works offline.
      validatorUrl: false,
      uiConfig: { deepLinking: true, defaultModelsExpandDepth: 0 },
    });
  });
}
