import { randomBytes } from "node:crypto";

/**
 * A new webhook or ping URL token: 24 random bytes as base64url (192 bits, well over the 128 the design
 * asks), drawn again when it would start with "-", which a command line (the CLI, curl's neighbours)
 * would read as an option. One draw in 64 is redrawn, so the tokens keep about 191.9 bits.
 */
export function newUrlToken(): string {
  for (;;) {
    const token = randomBytes(24).toString("base64url");
    if (!token.startsWith("-")) return token;
  }
}
