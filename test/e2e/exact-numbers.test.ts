// Trigger and ping metadata is stored as sent or refused: a number a double would change — 1e400
// (stored as null), 123456789012345678901234567890 (stored as 1.2345678901234568e29), -0 (stored
// as 0) — is 400 naming its field, and every other spelling of a number is kept.
import { describe, expect, inject, it } from "vitest";
import { Client } from "../support/client.ts";

const stack = inject("stack");
const client = new Client(stack);

const fieldsOf = (body: Record<string, unknown>) =>
  (body.details as { field: string }[] | undefined)?.map((detail) => detail.field);

describe("metadata numbers are kept as sent or refused", () => {
  it.each([
    [`{"title":"t","metadata":{"big":1e400}}`, "metadata.big"],
    [`{"title":"t","metadata":{"big":123456789012345678901234567890}}`, "metadata.big"],
    [`{"title":"t","metadata":{"zero":-0}}`, "metadata.zero"],
    [`{"title":"t","metadata":{"list":[1,{"tiny":1e-400}]}}`, "metadata.list[1].tiny"],
    [`{"title":"t","metadata":{"id":9007199254740993}}`, "metadata.id"],
  ])("trigger %s → 400 naming %s", async (body, field) => {
    const { secret, webhookUrl } = await client.setup();
    const response = await client.trigger(webhookUrl, body, { secret });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("invalid_request");
    expect(fieldsOf(response.body)).toEqual([field]);
  });

  it.each([
    [`{"big":1e400}`, "big"],
    [`{"metadata":{"n":-0.0}}`, "metadata.n"],
    [`{"build":{"id":123456789012345678901234567890}}`, "build.id"],
  ])("ping %s → 400 naming %s, and the monitor is untouched", async (body, field) => {
    const { secret, pingUrl, monitorId } = await client.setupMonitor();
    const response = await client.ping(pingUrl, body, { secret });
    expect(response.status).toBe(400);
    expect(fieldsOf(response.body)).toEqual([field]);
    expect((await client.getMonitor(monitorId)).status).toBe("idle");
  });

  it("stores numbers a double holds exactly, however they are spelled", async () => {
    const { secret, webhookUrl } = await client.setup();
    const body = `{"title":"t","metadata":{"a":0.1,"b":1.50,"c":1e3,"d":-2.5E-3,"e":9007199254740992,"f":0,"g":1.7976931348623157e308},"ignored":1e400}`;
    const response = await client.trigger(webhookUrl, body, { secret });
    expect(response.status).toBe(201);
    const occurrences = await client.admin("GET", `/alerts/${response.body.alertId}/occurrences`);
    const [occurrence] = occurrences.body.occurrences as { metadata: unknown }[];
    expect(occurrence?.metadata).toEqual({
      a: 0.1,
      b: 1.5,
      c: 1000,
      d: -0.0025,
      e: 9007199254740992,
      f: 0,
      g: 1.7976931348623157e308,
    });
  });
});
