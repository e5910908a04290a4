import { createHash, timingSafeEqual } from "node:crypto";

const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(authorization: string | undefined): string | undefined {
  return /^Bearer +([^\s]+) *$/i.exec(authorization ?? "")?.[1];
}

/**
 * Checks an `Authorization: Bearer <token>` header against the admin token in
 * constant time: both sides are hashed first, so neither the length nor any
 * prefix of the token leaks through timing.
 */
export function createAdminTokenCheck(adminToken: string): (authorization: string | undefined) => boolean {
  if (adminToken === "") throw new Error("the admin token must not be empty");
  const expected = digest(adminToken);
  return (authorization) => {
    const token = bearerToken(authorization);
    const presented = digest(token ?? "");
    return timingSafeEqual(presented, expected) && token !== undefined;
  };
}
