import { type DestinationStream, type Logger, type LoggerOptions, pino } from "pino";
import { serializeError } from "./serialize-error.ts";

export type { Logger } from "pino";
export { redactMessage, serializeError } from "./serialize-error.ts";

/**
 * Paths pino removes before a line is written. Secrets, signatures and request
 * or response bodies never reach logs (README "Security"), whatever a caller
 * passes in.
 */
export const REDACTED_PATHS = [
  "secret",
  "webhookSecret",
  "signature",
  "payload",
  "body",
  "authorization",
  "*.secret",
  "*.webhookSecret",
  "*.signature",
  "*.payload",
  "*.body",
  "*.authorization",
  "*.slackUrl",
  "*.url",
  'req.headers["x-webhook-signature"]',
  "req.headers.authorization",
  "req.headers.cookie",
  'res.headers["set-cookie"]',
];

/** `destination`: stdout unless given (tests pass a stream to read the lines back). */
export function createLogger(
  service: string,
  level: LoggerOptions["level"] = "info",
  destination?: DestinationStream,
): Logger {
  const options: LoggerOptions = {
    name: service,
    level,
    base: { service },
    redact: { paths: REDACTED_PATHS, remove: true },
    // Errors are written as kind, code, message and frames: never the data a database error quotes.
    serializers: { err: serializeError },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return destination ? pino(options, destination) : pino(options);
}
