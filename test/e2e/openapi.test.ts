// The running gateway serves its OpenAPI document and the docs page, with no admin token.
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, inject, it } from "vitest";

const { baseUrl } = inject("stack");

describe("OpenAPI", () => {
  it("serves a valid OpenAPI 3.1 document at /openapi.json, naming the new admin endpoints", async () => {
    const response = await fetch(`${baseUrl}/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(document.openapi).toBe("3.1.0");
    expect((await new Validator().validate(structuredClone(document))).valid).toBe(true);
    expect(Object.keys(document.paths["/admin/v1/teams/{teamId}/api-keys"] ?? {}).sort()).toEqual(["get", "post"]);
    expect(document.paths["/admin/v1/teams/{teamId}/audit-log"]?.get).toBeDefined();
    expect(document.paths["/api/alerts/trigger/{webhookUrl}"]?.post).toBeDefined();
  });

  it("serves the docs page as HTML", async () => {
    const response = await fetch(`${baseUrl}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await response.text()).toContain("swagger-ui-bundle.js");
  });
});
