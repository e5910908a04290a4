import { Ajv } from "ajv";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pingBodySchema, triggerBodySchema } from "./body-schemas.ts";
import { parsePingBody } from "./ping.ts";
import { parseTriggerBody } from "./trigger.ts";

// The schemas are documentation: a body the parsers accept must never fail them (a caller who
// validates before sending would refuse a good body), and a body they refuse is refused by the
// parsers too. The parsers also check what JSON Schema cannot say (metadata depth and size,
// unstorable text), so they may refuse more.
const ajv = new Ajv({ strict: false, allErrors: true });
const validTrigger = ajv.compile(triggerBodySchema);
const validPing = ajv.compile(pingBodySchema);

const text = fc.oneof(
  fc.string({ maxLength: 5 }),
  fc.string({ unit: "grapheme", minLength: 195, maxLength: 205 }),
  fc.string({ unit: "binary", maxLength: 3 }),
  fc.constantFrom("", "😀".repeat(200), "😀".repeat(201), "\u0000", "\ud800"),
);
const value = fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null), fc.dictionary(text, text, { maxKeys: 2 }));
const field = (known: fc.Arbitrary<unknown>) => fc.option(fc.oneof(known, value), { nil: undefined });

const triggerBody = fc.record(
  {
    title: field(text),
    description: field(fc.string({ minLength: 1995, maxLength: 2005 })),
    severity: field(fc.constantFrom("sev0", "sev2", "sev4", "SEV1", "")),
    metadata: field(fc.dictionary(fc.string(), value, { maxKeys: 3 })),
    group_key: field(text),
    extra: field(value),
  },
  { requiredKeys: [] },
);
const pingBody = fc.record(
  {
    status: field(fc.constantFrom("up", "down", "UP", "")),
    reason: field(text),
    group_key: field(text),
    metadata: field(fc.dictionary(fc.string(), value, { maxKeys: 3 })),
    host: field(value),
  },
  { requiredKeys: [] },
);
const strip = (body: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(body).filter(([, entry]) => entry !== undefined));

describe("body schemas", () => {
  it("accept every trigger body parseTriggerBody accepts, and refuse only what it refuses", () => {
    fc.assert(
      fc.property(fc.oneof(triggerBody.map(strip), value), (body) => {
        if (parseTriggerBody(body).ok) expect(validTrigger(body), JSON.stringify(validTrigger.errors)).toBe(true);
        if (!validTrigger(body)) expect(parseTriggerBody(body).ok).toBe(false);
      }),
      { numRuns: 2_000 },
    );
  });

  it("accept every ping body parsePingBody accepts, and refuse only what it refuses", () => {
    fc.assert(
      fc.property(fc.oneof(pingBody.map(strip), value), (body) => {
        if (parsePingBody(body).ok) expect(validPing(body), JSON.stringify(validPing.errors)).toBe(true);
        if (!validPing(body)) expect(parsePingBody(body).ok).toBe(false);
      }),
      { numRuns: 2_000 },
    );
  });

  it("say what the parsers check: lengths in code points, required title, severities, statuses", () => {
    expect(validTrigger({ title: "😀".repeat(200) })).toBe(true);
    expect(validTrigger({ title: "😀".repeat(201) })).toBe(false);
    expect(validTrigger({ title: "" })).toBe(false);
    expect(validTrigger({})).toBe(false);
    expect(validTrigger({ title: "x", severity: "sev5" })).toBe(false);
    expect(validPing({})).toBe(true);
    expect(validPing({ status: "degraded" })).toBe(false);
    expect(validPing({ host: "db-1", load: [1, 2] })).toBe(true);
  });
});
