import type { FastifyRequest } from "fastify";
import { errors } from "../errors.ts";
import { bearerToken } from "../routes/admin/admin-token.ts";

/**
 * Step 1 of a bearer-token webhook (Alertmanager cannot sign a body): the token of
 * `Authorization: Bearer <token>`, or 401 missing_bearer_token (no header, another scheme, or none).
 */
export function requireBearerToken(request: FastifyRequest): string {
  const token = bearerToken(request.headers.authorization);
  if (token === undefined) throw errors.missingBearerToken();
  return token;
}
