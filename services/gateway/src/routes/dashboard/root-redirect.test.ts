import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../testing/build-test-app.ts";

describe("the root", () => {
  let app: FastifyInstance;
  beforeAll(() => {
    app = buildTestApp();
  });
  afterAll(() => app.close());

  it("GET / leads to the dashboard with a 302, HEAD / too; the query string is not carried over", async () => {
    for (const method of ["GET", "HEAD"] as const) {
      const response = await app.inject({ method, url: "/?utm=x" });
      expect(response.statusCode, method).toBe(302);
      expect(response.headers.location, method).toBe("/dashboard");
    }
  });

  it("answers nothing else at the root: POST / is a 404 in the API's shape", async () => {
    const response = await app.inject({ method: "POST", url: "/" });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: "not_found" });
  });
});
