import { Writable } from "node:stream";
import { createLogger } from "@pulsegate/runtime/logger";
import type { FastifyBaseLogger } from "fastify";
import { describe, expect, it } from "vitest";
import { lazyRequestLogger } from "./lazy-request-logger.ts";

function sink() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, stream };
}

describe("lazyRequestLogger", () => {
  it("makes no child for lines under the level, and one with the bindings for a line written", () => {
    const { lines, stream } = sink();
    const parent = createLogger("test", "warn", stream) as unknown as FastifyBaseLogger;
    let made = 0;
    const log = lazyRequestLogger(
      parent,
      () => {
        made++;
        return { reqId: "r1", path: "/api/ping/x" };
      },
      {},
    );
    // What Fastify checks of a child logger, and none is made for it.
    for (const method of ["info", "error", "debug", "fatal", "warn", "trace", "child"] as const) {
      expect(typeof log[method]).toBe("function");
    }
    log.debug("quiet");
    log.info("quiet too");
    expect(made).toBe(0);
    expect(log.level).toBe("warn");
    log.warn({ code: "x" }, "written");
    log.error("again");
    expect(made).toBe(1);
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      reqId: "r1",
      path: "/api/ping/x",
      code: "x",
      msg: "written",
    });
  });
});
