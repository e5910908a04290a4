import { randomUUID } from "node:crypto";
import { type ServerResponse, STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { Logger } from "@pulsegate/runtime/logger";
import type { FastifyInstance } from "fastify";
import { errorBody, errors, type HttpError } from "./errors.ts";
import { requestErrors } from "./metrics.ts";

/** The routed request a connection is serving, so that a deadline hit mid-body reuses its id. */
const inFlight = new WeakMap<Socket, { id: string; response: ServerResponse }>();

/** Remembers each connection's current request from onRequest until its response is sent. */
export function trackInFlightRequests(app: FastifyInstance): void {
  app.addHook("onRequest", async (request, reply) => {
    inFlight.set(request.raw.socket, { id: request.id, response: reply.raw });
  });
  app.addHook("onResponse", async (request) => {
    if (inFlight.get(request.raw.socket)?.id === request.id) inFlight.delete(request.raw.socket);
  });
}

/** Node's parser and deadline errors, mapped to the catalogue as Node's own answers map them. */
function fromClientError(error: NodeJS.ErrnoException): HttpError {
  switch (error.code) {
    case "HPE_HEADER_OVERFLOW":
      return errors.headersTooLarge();
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return errors.chunkExtensionsTooLarge();
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return errors.requestTimeout();
    default:
      return errors.malformedRequest();
  }
}

function rawResponse(error: HttpError, requestId: string): string {
  const body = JSON.stringify(errorBody(error, requestId));
  const headers = {
    "content-type": "application/json; charset=utf-8",
    "content-length": String(Buffer.byteLength(body)),
    "x-request-id": requestId,
    connection: "close",
    ...error.headers,
  };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\n${head.join("")}\r\n${body}`;
}

/**
 * Fastify's clientErrorHandler: what Node's HTTP server answers itself (a request line or
 * headers it cannot parse, over 16 KiB of them, a headers or request deadline missed) gets the
 * standard error body and an x-request-id, then the connection is closed, as Node does.
 */
export function answerClientErrors(log: Logger): (error: NodeJS.ErrnoException, socket: Socket) => void {
  return (error, socket) => {
    // A caller who reset the connection, or already closed it, has nobody left to answer.
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const known = fromClientError(error);
    const current = inFlight.get(socket);
    const requestId = current?.id ?? randomUUID();
    // Only the code: the error carries the raw bytes received (rawPacket).
    log.info({ reqId: requestId, status: known.status, code: known.code, cause: error.code }, "client error");
    requestErrors.add(1, { code: known.code, status: known.status });
    // Never write into a response that has already started.
    if (!current?.response.headersSent) socket.write(rawResponse(known, requestId));
    socket.destroy();
  };
}
