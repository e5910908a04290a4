// The running gateway serves its OpenAPI document and the docs page, with no admin token.
import { Validator } from "@seriousme/openapi-schema-validator";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchChromium } from "../support/browser.ts";

const { baseUrl } = inject("stack");

describe("OpenAPI", () => {
  it("serves a valid OpenAPI 3.1 document at /openapi.json, naming the new admin endpoints", async () => {
    const response = await fetch(`${baseUrl}/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(document.openapi).toBe("3.1.0");
    expect((await new Validator().validate(structuredClone(document))).valid).toBe(true);
    expect(Object.keys(document.paths["/admin/v1/teams/{teamId}/api-keys"] ?? {}).sort()).toEqual(["get", "post"]);
    const methods = (path: string) => Object.keys(document.paths[path] ?? {}).sort();
    expect(methods("/admin/v1/teams/{teamId}/audit-log")).toEqual(["get"]);
    expect(methods("/api/alerts/trigger/{webhookUrl}")).toEqual(["post"]);
    expect(methods("/api/alerts/alertmanager/{webhookUrl}")).toEqual(["post"]);
    expect(methods("/admin/v1/webhooks/{id}/bearer-token/rotate")).toEqual(["post"]);
  });

  it("serves the docs page as HTML", async () => {
    const response = await fetch(`${baseUrl}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await response.text()).toContain("swagger-ui-bundle.js");
  });

  it("sends the docs page and its files with a CSP that allows only its own files, and forbids framing", async () => {
    for (const path of ["/docs", "/docs/static/swagger-ui-bundle.js", "/docs/static/swagger-initializer.js"]) {
      const response = await fetch(`${baseUrl}${path}`);
      expect(response.status, path).toBe(200);
      const csp = directives(response.headers.get("content-security-policy"));
      expect(csp, path).toMatchObject({
        "default-src": "'none'",
        "script-src": "'self'",
        "style-src": expect.stringMatching(/^'self'( 'sha256-[A-Za-z0-9+/=]+')*$/),
        "connect-src": "'self'",
        "frame-ancestors": "'none'",
        "base-uri": "'none'",
      });
      expect(response.headers.get("x-frame-options"), path).toBe("DENY");
      expect(response.headers.get("x-content-type-options"), path).toBe("nosniff");
    }
  });

  describe("in a browser", () => {
    let browser: Browser | undefined;
    beforeAll(async () => {
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
    });

    it("the docs page renders under that CSP, with nothing blocked", async () => {
      const page = await (browser as Browser).newPage();
      // Under the test timeout, so a step that never comes names its locator. Swagger UI's 1.5 MB
      // bundle takes seconds to run on a busy machine.
      page.setDefaultTimeout(45_000);
      const blocked: string[] = [];
      page.on("console", (message) => {
        if (/Content Security Policy|Refused to/i.test(message.text())) blocked.push(message.text());
      });
      await page.goto(`${baseUrl}/docs`);
      // Rendered from /openapi.json by Swagger UI's own scripts: the title and an operation.
      await page.locator(".swagger-ui .info .title", { hasText: "Pulsegate" }).waitFor();
      await page.locator(".opblock-summary-path", { hasText: "/api/alerts/trigger/{webhookUrl}" }).first().waitFor();
      expect(blocked).toEqual([]);
    }, 100_000);
  });
});

/** A Content-Security-Policy header as its directives. */
function directives(header: string | null): Record<string, string> {
  return Object.fromEntries(
    (header ?? "")
      .split(";")
      .map((directive) => directive.trim())
      .filter(Boolean)
      .map((directive) => {
        const [name = "", ...values] = directive.split(/\s+/);
        return [name, values.join(" ")];
      }),
  );
}
