import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../testing/build-test-app.ts";

type Media = { schema?: object; example?: unknown; examples?: Record<string, { value: unknown }> };
type Operation = { operationId?: string; requestBody?: { content?: Record<string, Media> } };
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, object> };
};

/** Every operation of the document, as `METHOD /path` and the operation. */
const operationsOf = (document: Document) =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ at: `${method.toUpperCase()} ${path}`, operation })),
  );

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

  it("names every operation, each name its own", () => {
    const operations = operationsOf(document);
    expect(operations.filter(({ operation }) => !operation.operationId).map(({ at }) => at)).toEqual([]);
    const names = operations.map(({ operation }) => operation.operationId);
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
  });

  it("gives every admin body with fields examples, each valid against the body's schema", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) {
      ajv.addSchema(schema, `#/components/schemas/${name}`);
    }
    const bodies = operationsOf(document).filter(
      ({ at, operation }) =>
        at.includes(" /admin/v1/") &&
        Object.keys(
          (operation.requestBody?.content?.["application/json"]?.schema as { properties?: object })?.properties ?? {},
        ).length > 0,
    );
    expect(bodies.length).toBeGreaterThan(10);
    const problems: string[] = [];
    for (const { at, operation } of bodies) {
      const media = operation.requestBody?.content?.["application/json"] as Media;
      // @fastify/swagger writes one example as `example`, more as `examples`.
      const examples = "example" in media ? [media.example] : Object.values(media.examples ?? {}).map((e) => e.value);
      if (examples.length === 0) problems.push(`${at}: no example`);
      const validate = ajv.compile(media.schema as object);
      for (const example of examples) {
        if (!validate(example)) problems.push(`${at}: ${ajv.errorsText(validate.errors)}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("names the filter rule's operators, and no server unless PUBLIC_BASE_URL is set", () => {
    const rule = JSON.stringify(document.paths["/admin/v1/teams/{teamId}/webhooks"]?.post?.requestBody);
    expect(rule).toContain(
      '"enum":["==","!=","in","not in","contains","exists","not exists",">",">=","<","<=","starts with"]',
    );
    expect((document as { servers?: unknown }).servers).toBeUndefined();
  });

  it("stays small enough for /docs to render quickly: answers alike are written once, in components", async () => {
    // Written out at each operation, the error answers made it 627 KB and /docs took 11-16 s to render.
    const bytes = (await app.inject({ method: "GET", url: "/openapi.json" })).body.length;
    expect(bytes).toBeLessThan(250_000);
    const notFound = document.paths["/admin/v1/monitors/{id}"]?.get as { responses: Record<string, unknown> };
    expect(notFound.responses["404"]).toEqual({ $ref: expect.stringMatching(/^#\/components\/responses\//) });
  });

  it("names PUBLIC_BASE_URL as its server", async () => {
    const withBase = buildTestApp({}, { publicBaseUrl: "https://pulsegate.example" });
    try {
      const served = (await withBase.inject({ method: "GET", url: "/openapi.json" })).json();
      expect(served.servers).toEqual([{ url: "https://pulsegate.example", description: "PUBLIC_BASE_URL" }]);
    } finally {
      await withBase.close();
    }
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
