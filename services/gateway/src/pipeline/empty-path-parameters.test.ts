import type { FastifyInstance, HTTPMethods } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, TEST_ADMIN_TOKEN } from "../testing/build-test-app.ts";

type Route = { method: string; url: string };

let app: FastifyInstance;
const routes: Route[] = [];

beforeAll(async () => {
  app = buildTestApp();
  // Every route the app registers, as it registers it: a route added later is tested too.
  app.addHook("onRoute", (route) => {
    for (const method of ([] as HTTPMethods[]).concat(route.method)) routes.push({ method, url: route.url });
  });
  await app.ready();
});
afterAll(() => app.close());

/** The route's named parameters (`:teamId`); a wildcard (`*`) may be empty. */
const parametersOf = (url: string) => [...url.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1] as string);

/** The route's path with `empty` left empty and every other parameter filled in. */
const pathWithEmpty = (url: string, empty: string) =>
  url.replace(/:([A-Za-z]+)/g, (_, name: string) => (name === empty ? "" : "x1"));

describe("an empty path parameter", () => {
  it("is answered 404 not_found, naming the parameter, on every route that has one", async () => {
    const withParameters = routes.filter((route) => parametersOf(route.url).length > 0);
    // The app's surfaces are all there: public, admin, dashboard, badge.
    for (const prefix of ["/api/", "/admin/v1/", "/dashboard/", "/badge/"]) {
      expect(
        withParameters.some((route) => route.url.startsWith(prefix)),
        prefix,
      ).toBe(true);
    }
    for (const route of withParameters) {
      for (const parameter of parametersOf(route.url)) {
        const url = pathWithEmpty(route.url, parameter);
        const response = await app.inject({
          method: route.method as HTTPMethods,
          url,
          // Past authentication, were the rule checked after it.
          headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, "x-webhook-signature": "0".repeat(64) },
        });
        const what = `${route.method} ${url}`;
        expect(response.statusCode, what).toBe(404);
        if (route.method === "HEAD") continue;
        expect(response.json(), what).toEqual({
          error: `No such endpoint: the path's ${parameter} is empty.`,
          code: "not_found",
          requestId: response.headers["x-request-id"],
        });
      }
    }
  });

  it("the README's DELETE of a silence with an unset id", async () => {
    const response = await app.inject({
      method: "DELETE",
      url: "/admin/v1/teams/team_1/silences/",
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe("not_found");
  });
});
