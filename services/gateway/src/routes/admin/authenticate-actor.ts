import { errors } from "../../errors.ts";
import { type Actor, mayWrite } from "./actor.ts";
import { bearerToken, createAdminTokenCheck } from "./admin-token.ts";
import type { ApiKeyAuthenticator } from "./api-key-authenticator.ts";
import type { UserPasses } from "./user-passes.ts";

const READ_METHODS = new Set(["GET", "HEAD"]);

/**
 * Who an admin request comes from: `Authorization: Bearer <admin token>` or
 * `Bearer <team API key>`, or a signed-in person's pass from the dashboard (user-passes.ts);
 * anything else is 401. A read key, or a team viewer, may only read (403 otherwise).
 */
export function createActorAuthenticator(
  adminToken: string,
  apiKeys: ApiKeyAuthenticator,
  passes: UserPasses,
): (authorization: string | undefined, method: string) => Promise<Actor> {
  const isAdmin = createAdminTokenCheck(adminToken);
  return async (authorization, method) => {
    if (isAdmin(authorization)) return { kind: "admin" };
    const token = bearerToken(authorization);
    const actor = token === undefined ? undefined : await actorOfToken(token);
    if (!actor) throw errors.unauthorized();
    if (!mayWrite(actor) && !READ_METHODS.has(method)) throw errors.readOnlyKey();
    return actor;
  };

  async function actorOfToken(token: string): Promise<Actor | undefined> {
    if (passes.isPass(token)) return passes.open(token);
    const key = await apiKeys.authenticate(token);
    return key && { kind: "api_key", ...key };
  }
}
