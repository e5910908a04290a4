import { createHash, createHmac } from "node:crypto";
import { SealedValueError } from "@pulsegate/sealing";
import { describe, expect, it } from "vitest";
import { hmacFromStates, issueSecret, openStates, parseKeyring, signatureMatches } from "./index.ts";

describe("issueSecret (via the public index)", () => {
  it("returns the secret once and stores only fingerprint + sealed states", () => {
    const keyring = parseKeyring(Buffer.alloc(32, 9).toString("base64"), undefined, "production");
    const bind = (fingerprint: string): string => `pulsegate:team-secret:team_9:${fingerprint}`;
    const issued = issueSecret(keyring, bind);
    expect(issued.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(issued.fingerprint).toBe(createHash("sha256").update(issued.secret).digest("hex"));
    expect(issued.kekId).toBe(keyring.current.id);
    expect(issued.sealedStates.includes(Buffer.from(issued.secret))).toBe(false);
    expect(issued.sealedStates.includes(Buffer.from(issued.secret, "hex"))).toBe(false);

    const key = openStates(issued.sealedStates, keyring, bind(issued.fingerprint));
    const body = Buffer.from('{"ping":true}');
    const mac = createHmac("sha256", issued.secret).update(body).digest();
    expect(hmacFromStates(key, body).toString("hex")).toBe(mac.toString("hex"));
    expect(signatureMatches(key, body, mac)).toBe(true);
    expect(() => openStates(issued.sealedStates, keyring, bind("0".repeat(64)))).toThrow(SealedValueError);
  });
});
