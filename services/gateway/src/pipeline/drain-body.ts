import type { IncomingMessage } from "node:http";

/** The most of a refused body read and thrown away so that the caller gets to read its 413. */
export const DRAIN_LIMIT_BYTES = 8 * 1024 * 1024;
const DRAIN_TIMEOUT_MS = 5_000;

/**
 * Reads and discards what is left of a request body, up to `limitBytes` and `timeoutMs`. Fastify refuses an
 * oversized body without reading it and closes the connection after its answer; a client still sending (any
 * plain HTTP/1.1 client: fetch, the SDK) then fails on a reset socket with "write EPIPE" instead of reading
 * the 413 it was sent. Draining first turns that into the clear 4xx the interface promises. A body declared
 * larger than the bound is not read at all: the connection is closed as before.
 */
export function drainBody(
  raw: IncomingMessage,
  limitBytes = DRAIN_LIMIT_BYTES,
  timeoutMs = DRAIN_TIMEOUT_MS,
): Promise<void> {
  if (raw.readableEnded || raw.destroyed || Number(raw.headers["content-length"]) > limitBytes) {
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    let read = 0;
    const finish = () => {
      clearTimeout(timer);
      raw.off("data", onData);
      raw.off("end", finish);
      raw.off("error", finish);
      raw.off("close", finish);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > limitBytes) finish();
    };
    const timer = setTimeout(finish, timeoutMs);
    raw.on("data", onData);
    raw.once("end", finish);
    raw.once("error", finish);
    raw.once("close", finish);
    raw.resume();
  });
}
