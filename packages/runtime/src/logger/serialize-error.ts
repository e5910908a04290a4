/**
 * What a log line may say about an error: its kind, code and message, and
 * where it happened. Database errors carry the data they choked on — pg's
 * `where` ("JSON data, line 1: {"k":"…"), `detail` ("Key (x)=(…) already
 * exists"), `internalQuery`, and messages such as `invalid input syntax for
 * type integer: "…"` — and ORMs copy the failed SQL with its values onto
 * the error. None of that is written: request content never reaches logs.
 */
export type SerializedError = {
  type: string;
  message: string;
  code?: string | number;
  stack?: string;
  cause?: SerializedError;
};

const MAX_CAUSES = 3;

/** Quoted values PostgreSQL puts into messages; constraint and relation names stay. */
const QUOTED_VALUE_AT_END = /:\s*".*"\s*$/s;
const OUT_OF_RANGE = /value ".*" is out of range/s;

export function redactMessage(message: string): string {
  return message
    .replace(QUOTED_VALUE_AT_END, ': "[redacted]"')
    .replace(OUT_OF_RANGE, "value [redacted] is out of range");
}

export function serializeError(error: unknown, depth = 0): SerializedError {
  if (!(error instanceof Error)) {
    return { type: typeof error, message: typeof error === "string" ? redactMessage(error) : "(not an Error)" };
  }
  const message = redactMessage(error.message);
  const code = (error as { code?: unknown }).code;
  const serialized: SerializedError = { type: error.name, message };
  if (typeof code === "string" || typeof code === "number") serialized.code = code;
  if (error.stack) {
    // The first line repeats the message; the frames say where, never what.
    const frames = error.stack.split("\n").filter((line) => line.trim().startsWith("at "));
    serialized.stack = [`${error.name}: ${message}`, ...frames].join("\n");
  }
  if (error.cause !== undefined && depth < MAX_CAUSES) serialized.cause = serializeError(error.cause, depth + 1);
  return serialized;
}
