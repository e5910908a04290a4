import { createHash, createHmac } from "node:crypto";
import { SealedValueError } from "@pulsegate/sealing";
import { describe, expect, it } from "vitest";
import {
  deriveHmacStates,
  generateSecret,
  hmacFromStates,
  openStates,
  parseKeyring,
  sealingContext,
  sealStates,
  signatureMatches,
} from "./index.ts";

describe("a team secret as the team service stores it (via the public index)", () => {
  it("is shown once; only its fingerprint and its sealed states are kept, and they verify", () => {
    const keyring = parseKeyring(Buffer.alloc(32, 9).toString("base64"), undefined, "production");
    // As TeamService.create and rotateSecret make them.
    const { secret, fingerprint } = generateSecret();
    const sealed = sealStates(deriveHmacStates(secret), keyring, sealingContext("team_9", fingerprint));
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprint).toBe(createHash("sha256").update(secret).digest("hex"));
    expect(sealed.includes(Buffer.from(secret))).toBe(false);
    expect(sealed.includes(Buffer.from(secret, "hex"))).toBe(false);

    const key = openStates(sealed, keyring, sealingContext("team_9", fingerprint));
    const body = Buffer.from('{"ping":true}');
    const mac = createHmac("sha256", secret).update(body).digest();
    expect(hmacFromStates(key, body).toString("hex")).toBe(mac.toString("hex"));
    expect(signatureMatches(key, body, mac)).toBe(true);
    expect(() => openStates(sealed, keyring, sealingContext("team_9", "0".repeat(64)))).toThrow(SealedValueError);
    expect(() => openStates(sealed, keyring, sealingContext("team_8", fingerprint))).toThrow(SealedValueError);
  });
});
