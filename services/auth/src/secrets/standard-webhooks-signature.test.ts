import { createHmac } from "node:crypto";
import fc from "fast-check";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { deriveHmacStates, VerifierKey } from "./hmac-states.ts";
import { anySignatureMatches } from "./signature-matches.ts";
import { parseStandardSignatures, standardWebhooksSecret } from "./standard-webhooks-signature.ts";

const SECRET = "0123456789abcdef".repeat(4);
const KEY = VerifierKey.fromStates(deriveHmacStates(SECRET));
const AT = new Date("2026-01-02T03:04:05Z");
const SECONDS = Math.floor(AT.getTime() / 1000);

/** What auth is asked to check for a request signed by the reference library. */
function signedByLibrary(id: string, body: string, secret = standardWebhooksSecret(SECRET)) {
  return { header: new Webhook(secret).sign(id, AT, body), message: `${id}.${SECONDS}.${body}` };
}

const verifies = (message: string, header: string) =>
  anySignatureMatches(KEY, message, parseStandardSignatures(header) ?? []);

describe("standardWebhooksSecret", () => {
  it("is whsec_ and base64 of the secret's text: the library's key is the secret's 64 characters", () => {
    const whsec = standardWebhooksSecret(SECRET);
    expect(whsec).toMatch(/^whsec_[A-Za-z0-9+/]{86}==$/);
    expect(Buffer.from(whsec.slice("whsec_".length), "base64").toString("utf8")).toBe(SECRET);
    const { header, message } = signedByLibrary("msg_1", '{"title":"x"}');
    expect(header).toBe(`v1,${createHmac("sha256", SECRET).update(message).digest("base64")}`);
  });
});

describe("a Standard Webhooks signature list under the team's sealed key", () => {
  it("matches what the reference library signs, for any id and body", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 40 }), fc.string({ maxLength: 500 }), (id, body) => {
        const { header, message } = signedByLibrary(id, body);
        expect(verifies(message, header)).toBe(true);
        expect(verifies(`${message} `, header)).toBe(false);
      }),
      { numRuns: 50 },
    );
  });

  it("takes any one valid entry among others, and ignores other versions", () => {
    const { header, message } = signedByLibrary("msg_2", "{}");
    const other = signedByLibrary("msg_2", "{}", standardWebhooksSecret("f".repeat(64))).header;
    const value = header.slice("v1,".length);
    expect(verifies(message, `${other} ${header}`)).toBe(true);
    expect(verifies(message, `v1a,${value} ${other}`)).toBe(false);
    expect(verifies(message, `v2,${value}`)).toBe(false);
    expect(verifies(message, `${header}  `)).toBe(true);
    expect(verifies(message, other)).toBe(false);
  });

  it("reads nothing, and never throws, from what is not a signature list", () => {
    const { header } = signedByLibrary("msg_3", "{}");
    const value = header.slice("v1,".length);
    for (const malformed of [
      "",
      "v1,",
      "v1",
      value,
      `v1,${value.slice(0, -1)}`,
      `v1,${value}A`,
      `v1,${Buffer.from(value, "base64").toString("base64url")}`,
      `v1,${Buffer.from(value, "base64").toString("hex")}`,
    ]) {
      expect(parseStandardSignatures(malformed)).toEqual([]);
    }
    for (const refused of [undefined, null, 7, [header], `${header} `.repeat(11), `${header}${" ".repeat(1_024)}`]) {
      expect(parseStandardSignatures(refused)).toBeNull();
    }
    expect(parseStandardSignatures(`${header} `.repeat(10))).toHaveLength(10);
  });
});
