import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Session } from "./session-store.ts";

/** An admin API error body (DESIGN §2): a sentence, a code, and field details for a 400. */
export type ApiError = {
  status: number;
  error: string;
  code: string;
  details?: { field: string; message: string }[];
};

export type ApiAnswer<T> = { ok: true; status: number; body: T } | { ok: false; error: ApiError };

/** Calls one admin route as the signed-in user. */
export type AdminCall = <T = Record<string, unknown>>(
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE",
  path: string,
  body?: unknown,
) => Promise<ApiAnswer<T>>;

/** The session's credential was refused (revoked key, rotated admin token): the user must sign in again. */
export class SignedOut extends Error {
  override name = "SignedOut";
}

/** Headers that decide the public address admin answers show (triggerUrl, pingEndpoint). */
const FORWARDED = ["host", "x-forwarded-host", "x-forwarded-proto", "x-forwarded-for"] as const;

/**
 * The dashboard acts through the admin API itself, in process (Fastify's inject: no socket, no
 * second copy of any rule): the same access checks, validation, error bodies and audit entries
 * as a curl with the same token.
 */
export function createAdminCall(app: FastifyInstance, request: FastifyRequest, session: Session): AdminCall {
  const headers: Record<string, string> = { authorization: `Bearer ${session.token}` };
  for (const name of FORWARDED) {
    const value = request.headers[name];
    if (typeof value === "string") headers[name] = value;
  }
  return async <T>(method: string, path: string, body?: unknown): Promise<ApiAnswer<T>> => {
    const response = await app.inject({
      method: method as "GET",
      url: `/admin/v1${path}`,
      // The browser's connection as it came in (with the forwarded headers above): the admin API
      // sees the same client address (failed credentials are counted per client) and protocol.
      remoteAddress: request.socket.remoteAddress ?? request.ip,
      headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    if (response.statusCode === 401) throw new SignedOut();
    const parsed = response.body === "" ? {} : (JSON.parse(response.body) as Record<string, unknown>);
    if (response.statusCode >= 400) {
      return {
        ok: false,
        error: {
          status: response.statusCode,
          error: String(parsed.error ?? "The request failed."),
          code: String(parsed.code ?? "error"),
          ...(Array.isArray(parsed.details) ? { details: parsed.details as ApiError["details"] } : {}),
        },
      };
    }
    return { ok: true, status: response.statusCode, body: parsed as T };
  };
}

/** Ends the page with an error page for this refusal. */
export function fail(error: ApiError): never {
  throw Object.assign(new Error(error.error), { dashboardError: error });
}

/** The body of a successful answer; a refusal ends the page with an error page. */
export function must<T>(answer: ApiAnswer<T>): T {
  return answer.ok ? answer.body : fail(answer.error);
}

/** A resource reached through another team's pages is not found there. */
export function requireTeamOf<T extends { teamId: string }>(resource: T, teamId: string, what: string): T {
  if (resource.teamId !== teamId) fail({ status: 404, error: `No ${what} has that id.`, code: "not_found" });
  return resource;
}
