import { describe, expect, it } from "vitest";
import { isTransientError } from "./is-transient-error.ts";

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe("isTransientError", () => {
  it("recognises a peer or database that cannot be reached", () => {
    expect(isTransientError(withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED"))).toBe(true);
    expect(isTransientError(withCode("read ECONNRESET", "ECONNRESET"))).toBe(true);
    expect(isTransientError(withCode("getaddrinfo EAI_AGAIN postgres", "EAI_AGAIN"))).toBe(true);
    expect(isTransientError(withCode("connect ENETUNREACH", "ENETUNREACH"))).toBe(true);
  });

  it("recognises PostgreSQL's connection, resource and shutdown states by SQLSTATE class", () => {
    for (const code of ["57P01", "57P02", "57P03", "53300", "53100", "08000", "08001", "08003", "08004", "08006"]) {
      expect(isTransientError(withCode("x", code)), code).toBe(true);
    }
  });

  it("recognises the drivers' messages, and MikroORM's ConnectionException", () => {
    expect(isTransientError(new Error("timeout exceeded when trying to connect"))).toBe(true);
    expect(isTransientError(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isTransientError(new Error("Client has encountered a connection error and is not queryable"))).toBe(true);
    expect(isTransientError(new Error("the database system is starting up"))).toBe(true);
    expect(isTransientError(new Error("Query read timeout"))).toBe(true);
    const orm = new Error("x");
    orm.name = "ConnectionException";
    expect(isTransientError(orm)).toBe(true);
  });

  it("recognises a prepared statement a migration made stale (a fresh connection prepares it anew)", () => {
    expect(isTransientError(withCode("cached plan must not change result type", "0A000"))).toBe(true);
    expect(isTransientError(withCode("cannot use WHERE CURRENT OF here", "0A000"))).toBe(false);
  });

  it("looks behind causes and into an AggregateError", () => {
    expect(isTransientError(new Error("wrapped", { cause: withCode("terminating connection", "57P01") }))).toBe(true);
    expect(isTransientError(new AggregateError([new Error("x"), withCode("refused", "ECONNREFUSED")]))).toBe(true);
    expect(isTransientError({ message: "plain object", cause: { code: "08006" } })).toBe(true);
  });

  it("stops five causes deep", () => {
    let error: Error = withCode("refused", "ECONNREFUSED");
    for (let depth = 0; depth < 5; depth++) error = new Error(`wrap ${depth}`, { cause: error });
    expect(isTransientError(error)).toBe(false);
  });

  it("leaves programming errors and statements the database refused alone", () => {
    expect(isTransientError(new TypeError("undefined is not a function"))).toBe(false);
    expect(isTransientError(withCode("duplicate key value violates unique constraint", "23505"))).toBe(false);
    expect(isTransientError(withCode("invalid byte sequence for encoding", "22021"))).toBe(false);
    expect(isTransientError(new AggregateError([new Error("a"), new Error("b")]))).toBe(false);
    expect(isTransientError(undefined)).toBe(false);
    expect(isTransientError("ECONNREFUSED")).toBe(false);
  });
});
