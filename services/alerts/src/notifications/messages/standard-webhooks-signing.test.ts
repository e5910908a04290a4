import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { newSigningSecret, standardWebhooksHeaders } from "./standard-webhooks-signing.ts";

describe("a standard-webhooks channel's signatures", () => {
  it("are what the reference library verifies, with the secret as shown to the team", () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), "base64")).toHaveLength(32);
    const body = Buffer.from(JSON.stringify({ type: "alert.created", alert: { title: "Ünïcode" } }));
    const headers = standardWebhooksHeaders([secret], "dlv_1", body);
    expect(headers["webhook-id"]).toBe("dlv_1");
    expect(Math.abs(Number(headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(5);
    expect(new Webhook(secret).verify(body.toString("utf8"), headers)).toMatchObject({ type: "alert.created" });
  });

  it("carry one entry per secret, so a receiver holding either verifies", () => {
    const [current, previous] = [newSigningSecret(), newSigningSecret()];
    const body = Buffer.from("{}");
    const headers = standardWebhooksHeaders([current, previous], "dlv_2", body);
    expect(headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    for (const secret of [current, previous]) expect(new Webhook(secret).verify("{}", headers)).toEqual({});
    expect(() => new Webhook(newSigningSecret()).verify("{}", headers)).toThrow(/No matching signature/);
  });

  it("sign the timestamp given, so an old attempt's headers fail the receiver's tolerance", () => {
    const secret = newSigningSecret();
    const headers = standardWebhooksHeaders([secret], "dlv_3", Buffer.from("{}"), Date.now() - 600_000);
    expect(() => new Webhook(secret).verify("{}", headers)).toThrow(/too old/);
  });
});
