import { createHmac } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sign, verify } from "./signature.ts";

const SECRET = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

// Computed once with `printf '%s' "$BODY" | openssl dgst -sha256 -hmac "$SECRET"` (OpenSSL 3.0) and pinned.
const VECTORS: { name: string; secret: string; body: string | Uint8Array; signature: string }[] = [
  {
    name: "the empty body (a ping without one)",
    secret: SECRET,
    body: "",
    signature: "081247dc68bb7fafbf13220013a0ab71db8b628d679161f87b5e5bd9e19b1494",
  },
  {
    name: "a trigger",
    secret: SECRET,
    body: '{"title":"Backup failed","group_key":"backup"}',
    signature: "a51a1efcefb880a4adf790346eec10d02079a055e2c829dc2a6fe2c5e5df4c07",
  },
  {
    name: "a down ping",
    secret: SECRET,
    body: '{"status":"down","reason":"disk full on /var/backups"}',
    signature: "6eaf1f1bf72393b9bcec47e8a70235c0147fff8f4f11ce0e1bf51aedfb6ef461",
  },
  {
    name: "non-ASCII text, signed as UTF-8",
    secret: SECRET,
    body: '{"title":"Café ☕ déjà vu"}',
    signature: "1c8ddbe911f90100c4d3048dd6c7350d68cb9d7e21e0f59b9f4ea9bafbcbc6b7",
  },
  {
    name: "bytes that are not UTF-8 (printf '\\x00\\xff\\x10\\x80')",
    secret: SECRET,
    body: new Uint8Array([0x00, 0xff, 0x10, 0x80]),
    signature: "3fbc0761b5436747b8ff7e5e04f85fafb6fec3dab2a19cb3dd941587da196887",
  },
  {
    name: "a short secret",
    secret: "key",
    body: "hello",
    signature: "9307b3b915efb5171ff14d8cb55fbcc798c6c0ef1456d66ded1a6aa723a58b7b",
  },
];

describe("sign", () => {
  for (const vector of VECTORS) {
    it(`matches openssl for ${vector.name}`, () => {
      expect(sign(vector.secret, vector.body)).toBe(vector.signature);
    });
  }

  it("signs a string as its UTF-8 bytes", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), fc.string({ minLength: 1 }), (body, secret) => {
        expect(sign(secret, body)).toBe(sign(secret, Buffer.from(body, "utf8")));
      }),
    );
  });

  it("is lowercase hex HMAC-SHA256 of the bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 512 }), fc.string({ minLength: 1 }), (body, secret) => {
        const signature = sign(secret, body);
        expect(signature).toMatch(/^[0-9a-f]{64}$/);
        expect(signature).toBe(createHmac("sha256", secret).update(body).digest("hex"));
      }),
    );
  });
});

describe("verify", () => {
  for (const vector of VECTORS) {
    it(`accepts openssl's signature of ${vector.name}, in every form the service accepts`, () => {
      const { secret, body, signature } = vector;
      for (const header of [signature, signature.toUpperCase(), `sha256=${signature}`, `SHA256=${signature}`]) {
        expect(verify(secret, body, header)).toBe(true);
      }
    });
  }

  it("accepts what sign makes, and refuses another body, another secret or a changed signature", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 256 }),
        fc.uint8Array({ maxLength: 256 }),
        fc.string({ minLength: 1 }),
        fc.nat(63),
        (body, other, secret, position) => {
          const signature = sign(secret, body);
          expect(verify(secret, body, signature)).toBe(true);
          expect(verify(`${secret}x`, body, signature)).toBe(false);
          if (Buffer.compare(Buffer.from(body), Buffer.from(other)) !== 0) {
            expect(verify(secret, other, signature)).toBe(false);
          }
          const flipped = (Number.parseInt(signature[position] ?? "0", 16) ^ 1).toString(16);
          const changed = signature.slice(0, position) + flipped + signature.slice(position + 1);
          expect(verify(secret, body, changed)).toBe(false);
        },
      ),
    );
  });

  it("returns false, never throws, on any header a sender controls", () => {
    fc.assert(
      fc.property(fc.anything(), (header) => {
        const signature = sign(SECRET, "body");
        expect(verify(SECRET, "body", header)).toBe(header === signature);
      }),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 100 }), (header) => {
        expect(() => verify(SECRET, "body", header)).not.toThrow();
      }),
    );
  });

  it("refuses malformed headers: missing, too short or long, not hex, a wrong prefix, a truncated signature", () => {
    const signature = sign(SECRET, "body");
    for (const header of [
      undefined,
      null,
      "",
      signature.slice(0, 63),
      `${signature}0`,
      `${signature.slice(0, 63)}g`,
      `sha1=${signature}`,
      `sha256:${signature}`,
      `sha256=sha256=${signature}`,
      `${"0".repeat(10_000)}`,
      [signature],
      Buffer.from(signature),
    ]) {
      expect(verify(SECRET, "body", header)).toBe(false);
    }
  });
});
