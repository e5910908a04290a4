import type { FastifyInstance } from "fastify";
import { sendError } from "../error-handler.ts";
import { errors } from "../errors.ts";

/**
 * A named path parameter left empty names no resource: `DELETE …/silences/` from a script whose
 * `$SILENCE_ID` was unset must not reach the route (which would act on, and audit, an id of "").
 * One rule for every route, public, admin and dashboard alike: 404 before anything else runs.
 * A wildcard (`*`, the API docs' static files) may be empty.
 */
export function refuseEmptyPathParameters(app: FastifyInstance): void {
  // A callback hook, not an async one: no promise per request.
  app.addHook("onRequest", (request, reply, done) => {
    const params = request.params as Record<string, string> | undefined;
    for (const name in params) {
      if (params[name] === "" && name !== "*") {
        sendError(request, reply, errors.emptyPathParameter(name));
        return;
      }
    }
    done();
  });
}
