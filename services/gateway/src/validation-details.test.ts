import { describe, expect, it } from "vitest";
import { detailsFromValidation } from "./validation-details.ts";

const issue = (keyword: string, instancePath: string, params: Record<string, unknown>, message?: string) => ({
  keyword,
  instancePath,
  schemaPath: "#",
  params,
  message,
});

describe("detailsFromValidation", () => {
  it("names missing and unknown properties", () => {
    expect(
      detailsFromValidation(
        [
          issue("required", "", { missingProperty: "name" }, "must have required property 'name'"),
          issue("additionalProperties", "/filterRules/0", { additionalProperty: "regex" }),
        ],
        "body",
      ),
    ).toEqual([
      { field: "name", message: "name is required." },
      { field: "filterRules[0].regex", message: "filterRules[0].regex is not allowed." },
    ]);
  });

  it("uses the dotted path and ajv's message for other keywords", () => {
    expect(
      detailsFromValidation([issue("minimum", "/alertQuotaMonthly", { limit: 0 }, "must be >= 0")], "body"),
    ).toEqual([{ field: "alertQuotaMonthly", message: "alertQuotaMonthly must be >= 0." }]);
  });

  it("says what the page-size pattern means instead of quoting it", () => {
    expect(
      detailsFromValidation(
        [issue("pattern", "/limit", { pattern: "^…$" }, 'must match pattern "^…$"')],
        "querystring",
      ),
    ).toEqual([{ field: "limit", message: "limit must be a whole number from 1 to 200." }]);
  });

  it("falls back to the context for the root and decodes JSON pointers", () => {
    expect(detailsFromValidation([issue("type", "", { type: "object" }, "must be object")], "body")).toEqual([
      { field: "body", message: "body must be object." },
    ]);
    expect(detailsFromValidation([issue("type", "/a~1b~0c", {}, "must be string")], "body")[0]?.field).toBe("a/b~c");
  });

  it("says a key is too long as one sentence about the object's keys (propertyNames), not about the object", () => {
    const tooLong = {
      ...issue("maxLength", "/matchers/metadata", { limit: 200 }, "must NOT have more than 200 characters"),
      propertyName: "k".repeat(201),
    };
    const invalidName = issue(
      "propertyNames",
      "/matchers/metadata",
      { propertyName: "k".repeat(201) },
      "property name must be valid",
    );
    expect(detailsFromValidation([tooLong, invalidName], "body")).toEqual([
      { field: "matchers.metadata", message: "matchers.metadata keys must NOT have more than 200 characters." },
    ]);
  });
});
