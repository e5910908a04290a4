import { REQUEST_LIMITS } from "@pulsegate/contract/limits";
import type { FastifyInstance, FastifyRequest } from "fastify";

const contentTypes = new WeakMap<FastifyRequest, string | undefined>();

/** The Content-Type header as the caller sent it (see acceptRawBodies). */
export function contentTypeOf(request: FastifyRequest): string | undefined {
  return contentTypes.get(request);
}

/** The exact bytes received; an absent body is the empty string's bytes. */
export function rawBodyOf(request: FastifyRequest): Buffer {
  return Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
}

/**
 * Makes every route of this (encapsulated) context receive its body as the
 * exact bytes sent, whatever the Content-Type, because the signature covers
 * those bytes and JSON is parsed only at step 6. The Content-Type header is
 * moved aside before Fastify looks at it: otherwise a malformed header would
 * be answered 415 ahead of the signature checks, breaking the order of checks.
 */
export function acceptRawBodies(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  const keepBytes = (_request: FastifyRequest, body: Buffer, done: (error: null, body: Buffer) => void) =>
    done(null, body);
  const options = { parseAs: "buffer", bodyLimit: REQUEST_LIMITS.bodyMaxBytes } as const;
  app.addContentTypeParser("application/json", options, keepBytes);
  app.addContentTypeParser("*", options, keepBytes);
  // A callback hook, not an async one: no promise per request. Assigning undefined (not `delete`) keeps
  // the headers object's shape, so later header reads stay fast.
  app.addHook("onRequest", (request, _reply, done) => {
    contentTypes.set(request, request.headers["content-type"]);
    request.headers["content-type"] = undefined;
    done();
  });
}
