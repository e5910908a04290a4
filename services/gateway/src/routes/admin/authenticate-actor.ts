import { errors } from "../../errors.ts";
import type { Actor } from "./actor.ts";
import { bearerToken, createAdminTokenCheck } from "./admin-token.ts";
import type { ApiKeyAuthenticator } from "./api-key-authenticator.ts";

const READ_METHODS = new Set(["GET", "HEAD"]);

/**
 * Who an admin request comes from: `Authorization: Bearer <admin token>` or
 * `Bearer <team API key>`; anything else is 401. A read key may only read (403 otherwise).
 */
export function createActorAuthenticator(
  adminToken: string,
  apiKeys: ApiKeyAuthenticator,
): (authorization: string | undefined, method: string) => Promise<Actor> {
  const isAdmin = createAdminTokenCheck(adminToken);
  return async (authorization, method) => {
    if (isAdmin(authorization)) return { kind: "admin" };
    const token = bearerToken(authorization);
    const key = token === undefined ? undefined : await apiKeys.authenticate(token);
    if (!key) throw errors.unauthorized();
    if (key.scope === "read" && !READ_METHODS.has(method)) throw errors.readOnlyKey();
    return { kind: "api_key", ...key };
  };
}
