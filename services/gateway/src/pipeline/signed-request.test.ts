import { alerts, auth } from "@pulsegate/proto";
import type { FastifyRequest } from "fastify";
import { describe, expect, it } from "vitest";
import { HttpError } from "../errors.ts";
import { readIdempotencyKey } from "./idempotency-key.ts";
import { readSignedRequest } from "./signed-request.ts";

const body = Buffer.from('{"title":"x"}');
const now = () => Math.floor(Date.now() / 1000);
const standard = {
  signatureScheme: alerts.SignatureScheme.SIGNATURE_SCHEME_STANDARD_WEBHOOKS,
  requireTimestamp: false,
};
const pulsegate = { signatureScheme: alerts.SignatureScheme.SIGNATURE_SCHEME_PULSEGATE, requireTimestamp: false };
const request = (headers: Record<string, string | string[]>) => ({ headers }) as unknown as FastifyRequest;
const SIGNATURE = `v1,${Buffer.alloc(32, 1).toString("base64")}`;

/** The code and sentence a read refuses with. */
function refusal(read: () => unknown): { status: number; code: string; message: string } {
  try {
    read();
  } catch (error) {
    if (error instanceof HttpError) return { status: error.status, code: error.code, message: error.message };
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("a Standard Webhooks request", () => {
  it("signs '<webhook-id>.<webhook-timestamp>.<body>' and hands auth the signature list as sent", () => {
    const ts = String(now());
    const read = readSignedRequest(
      request({ "webhook-id": "msg_1", "webhook-timestamp": ts, "webhook-signature": `${SIGNATURE} v1a,xyz` }),
      body,
      standard,
    );
    expect(read.verify.payload.toString()).toBe(`msg_1.${ts}.{"title":"x"}`);
    expect(read.verify.signature).toBe(`${SIGNATURE} v1a,xyz`);
    expect(read.verify.format).toBe(auth.SignatureFormat.SIGNATURE_FORMAT_STANDARD_WEBHOOKS);
    // Repeats are the idempotency key's, not the replay guard's.
    expect([read.webhookId, read.timestamp]).toEqual(["msg_1", null]);
  });

  it("names each missing or malformed header in a 401", () => {
    const ts = String(now());
    const all = { "webhook-id": "msg_1", "webhook-timestamp": ts, "webhook-signature": SIGNATURE };
    const without = (name: string) => Object.fromEntries(Object.entries(all).filter(([key]) => key !== name));
    const cases: [Record<string, string>, string, RegExp][] = [
      [without("webhook-signature"), "missing_signature", /^Missing webhook signature: .*Standard Webhooks/],
      [
        { ...all, "webhook-signature": "  " },
        "missing_signature",
        /webhook-id, webhook-timestamp and webhook-signature/,
      ],
      [without("webhook-id"), "missing_webhook_id", /^Missing webhook-id/],
      [{ ...all, "webhook-id": "two words" }, "invalid_webhook_id", /visible ASCII/],
      [{ ...all, "webhook-id": "x".repeat(256) }, "invalid_webhook_id", /1 to 255/],
      [without("webhook-timestamp"), "missing_timestamp", /^Missing webhook-timestamp/],
      [{ ...all, "webhook-timestamp": "soon" }, "invalid_timestamp", /^webhook-timestamp must be a Unix time/],
      [
        { ...all, "webhook-timestamp": String(now() - 301) },
        "timestamp_out_of_tolerance",
        /^webhook-timestamp is more than 300 s/,
      ],
      [{ ...all, "webhook-timestamp": String(now() + 360) }, "timestamp_out_of_tolerance", /possible replay/],
    ];
    for (const [headers, code, message] of cases) {
      const refused = refusal(() => readSignedRequest(request(headers), body, standard));
      expect([refused.status, refused.code]).toEqual([401, code]);
      expect(refused.message).toMatch(message);
    }
  });

  it("does not read X-Webhook-Signature, and the interface's scheme does not read webhook-signature", () => {
    const plain = refusal(() => readSignedRequest(request({ "x-webhook-signature": "a".repeat(64) }), body, standard));
    expect(plain.code).toBe("missing_signature");
    const ts = String(now());
    const headers = { "webhook-id": "msg_1", "webhook-timestamp": ts, "webhook-signature": SIGNATURE };
    const standardToPulsegate = refusal(() => readSignedRequest(request(headers), body, pulsegate));
    // The interface's scheme answers its missing header with the spec's exact sentence.
    expect([standardToPulsegate.code, standardToPulsegate.message]).toEqual([
      "missing_signature",
      "Missing webhook signature",
    ]);
  });

  it("takes its webhook-id as the idempotency key; an Idempotency-Key beside it must be the same", () => {
    expect(readIdempotencyKey(request({}), "msg_1")).toBe("msg_1");
    expect(readIdempotencyKey(request({ "idempotency-key": "msg_1" }), "msg_1")).toBe("msg_1");
    const other = refusal(() => readIdempotencyKey(request({ "idempotency-key": "other" }), "msg_1"));
    expect([other.status, other.code]).toEqual([400, "invalid_request"]);
    expect(readIdempotencyKey(request({ "idempotency-key": "k1" }))).toBe("k1");
    expect(readIdempotencyKey(request({}))).toBe("");
  });
});
