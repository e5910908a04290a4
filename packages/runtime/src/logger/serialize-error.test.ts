import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, serializeError } from "./index.ts";

/** A pg DatabaseError as the driver builds it for a json value holding \u0000. */
function databaseError(): Error {
  return Object.assign(new Error("unsupported Unicode escape sequence"), {
    name: "DriverException",
    code: "22P05",
    severity: "ERROR",
    detail: "\\u0000 cannot be converted to text.",
    where: 'JSON data, line 1: {"k":"SECRET-METADATA\\u0000...',
    internalQuery: "SELECT 'SECRET-METADATA'",
    query: "insert into x values ('SECRET-METADATA')",
  });
}

describe("serializeError", () => {
  it("keeps kind, code, message and frames, and drops what a database error quotes", () => {
    const serialized = serializeError(databaseError());
    expect(serialized).toMatchObject({
      type: "DriverException",
      code: "22P05",
      message: "unsupported Unicode escape sequence",
    });
    expect(JSON.stringify(serialized)).not.toContain("SECRET-METADATA");
  });

  it("redacts the quoted value PostgreSQL puts at the end of a message, keeping constraint names", () => {
    expect(serializeError(new Error('invalid input syntax for type integer: "SECRET"')).message).toBe(
      'invalid input syntax for type integer: "[redacted]"',
    );
    expect(serializeError(new Error('value "99999999999" is out of range for type integer')).message).toBe(
      "value [redacted] is out of range for type integer",
    );
    const unique = 'duplicate key value violates unique constraint "alerts_one_open_per_key"';
    expect(serializeError(new Error(unique)).message).toBe(unique);
  });

  it("follows causes, redacted the same way", () => {
    const wrapped = new Error("batch failed", { cause: databaseError() });
    expect(serializeError(wrapped).cause?.code).toBe("22P05");
    expect(JSON.stringify(serializeError(wrapped))).not.toContain("SECRET-METADATA");
  });

  it("is the logger's serializer for err", () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    createLogger("test", "info", sink).error({ err: databaseError() }, "pass failed");
    expect(lines.join("")).toContain("22P05");
    expect(lines.join("")).not.toContain("SECRET-METADATA");
  });
});
