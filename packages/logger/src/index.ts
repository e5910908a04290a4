import { type Logger, type LoggerOptions, pino } from "pino";

export type { Logger } from "pino";

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

export function createLogger(service: string, level: LoggerOptions["level"] = "info"): Logger {
  return pino({
    name: service,
    level,
    base: { service },
    redact: { paths: REDACTED_PATHS, remove: true },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}
