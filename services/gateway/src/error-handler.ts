import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { trackInFlightRequests } from "./client-error-handler.ts";
import { errorBody, errors, HttpError } from "./errors.ts";
import { httpErrorFromGrpc, isGrpcError } from "./grpc-status-to-http.ts";
import { requestErrors } from "./metrics.ts";
import { drainBody } from "./pipeline/drain-body.ts";
import { detailsFromValidation } from "./validation-details.ts";

/** Fastify's own errors that callers can cause, mapped to the catalogue. */
function fromFastifyError(error: FastifyError): HttpError | undefined {
  if (error.validation) return errors.invalidRequest(detailsFromValidation(error.validation, error.validationContext));
  switch (error.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return errors.payloadTooLarge();
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return errors.unsupportedMediaType();
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return errors.invalidJson();
  }
  if (error instanceof SyntaxError && error.statusCode === 400) return errors.invalidJson();
  if (typeof error.statusCode === "number" && error.statusCode >= 400 && error.statusCode < 500) {
    return new HttpError("bad_request", undefined, { status: error.statusCode });
  }
  return undefined;
}

export function toHttpError(error: unknown): HttpError | undefined {
  if (error instanceof HttpError) return error;
  if (isGrpcError(error)) return httpErrorFromGrpc(error);
  if (error instanceof Error) return fromFastifyError(error as FastifyError);
  return undefined;
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: HttpError): FastifyReply {
  requestErrors.add(1, { code: error.code, status: error.status });
  return reply.code(error.status).headers(error.headers).send(errorBody(error, request.id));
}

/**
 * Every error leaves as `{"error", "code", "requestId"}`. Unexpected failures
 * are logged and answered 500 "Internal error." without their text; a peer
 * that is down is a 503 with Retry-After, never a 500. Errors the HTTP server
 * answers before routing are in client-error-handler.ts.
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const known = toHttpError(error);
    if (!known) {
      request.log.error({ err: error }, "unhandled error");
      return sendError(request, reply, errors.internal());
    }
    if (known.status === 500) request.log.error({ err: error }, "request failed");
    else if (known.status > 500) {
      // A peer that is down is expected now and then: its message is enough, not a stack per request.
      const cause = error instanceof Error ? error.message : String(error);
      request.log.warn({ code: known.code, cause }, "request failed");
    }
    // The rest of an oversized body is read first, so that the caller is still listening for the 413.
    if (known.code === "payload_too_large") return drainBody(request.raw).then(() => sendError(request, reply, known));
    return sendError(request, reply, known);
  });
  app.setNotFoundHandler((request, reply) => sendError(request, reply, errors.routeNotFound()));
  // So that answerClientErrors (the server's own 400, 408, 431) reuses a routed request's id.
  trackInFlightRequests(app);
}
