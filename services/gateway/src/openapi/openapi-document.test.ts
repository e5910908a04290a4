import { Validator } from "@seriousme/openapi-schema-validator";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../testing/build-test-app.ts";

type Document = { openapi: string; paths: Record<string, Record<string, unknown>> };

/** Fastify's `/admin/v1/teams/:teamId` as OpenAPI writes it: `/admin/v1/teams/{teamId}`. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, "{$1}");

describe("the OpenAPI document", () => {
  let app: FastifyInstance;
  const routes: { method: string; url: string }[] = [];
  let document: Document;

  beforeAll(async () => {
    app = buildTestApp();
    app.addHook("onRoute", (route) => {
      for (const method of [route.method].flat()) routes.push({ method, url: route.url });
    });
    await app.ready();
    const response = await app.inject({ method: "GET", url: "/openapi.json" });
    expect(response.statusCode).toBe(200);
    document = response.json();
  });
  afterAll(() => app.close());

  it("is valid OpenAPI 3.1", async () => {
    expect(document.openapi).toBe("3.1.0");
    const result = await new Validator().validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("describes every route the app serves, with its method", () => {
    // HEAD routes are GET's twins; /docs/* are the docs page's own files; /dashboard/* are web
    // pages in front of the admin API (docs/dashboard.md), not part of it, and / leads to them.
    const served = routes.filter(
      (route) =>
        route.method !== "HEAD" &&
        route.url !== "/" &&
        !route.url.startsWith("/docs") &&
        !route.url.startsWith("/dashboard"),
    );
    expect(served.length).toBeGreaterThan(35);
    const missing = served.filter(
      (route) => document.paths[openApiPath(route.url)]?.[route.method.toLowerCase()] === undefined,
    );
    expect(missing).toEqual([]);
  });

  it("is shown at /docs by a page whose every script and style the gateway serves itself (no CDN)", async () => {
    const page = await app.inject({ method: "GET", url: "/docs" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] ?? "");
    expect(assets.length).toBeGreaterThan(3);
    for (const asset of assets) {
      expect(asset).toMatch(/^\/docs\//);
      expect((await app.inject({ method: "GET", url: asset })).statusCode, asset).toBe(200);
    }
    const initializer = await app.inject({ method: "GET", url: "/docs/static/swagger-initializer.js" });
    expect(initializer.body).toContain("validatorUrl: null");
    const spec = await app.inject({ method: "GET", url: "/docs/json" });
    expect(spec.json()).toEqual(document);
  });
});
