import { randomUUID } from "node:crypto";
import type { Logger } from "@pulsegate/runtime/logger";
import { connectRedis } from "@pulsegate/runtime/redis";
import { describe, expect, it } from "vitest";
import { createSessionStore } from "./create-session-store.ts";

function recordingLog() {
  const warnings: string[] = [];
  const log = {
    // pino's forms: (message) and (fields, message).
    warn: (...args: unknown[]) => warnings.push(String(args.at(-1))),
    info: () => {},
    debug: () => {},
  } as unknown as Logger;
  return { log, warnings };
}

describe("the session store", () => {
  it("keeps sessions in process while Redis is unreachable, and says so once", async () => {
    const { log, warnings } = recordingLog();
    const redis = connectRedis("redis://127.0.0.1:1", log);
    try {
      const store = createSessionStore({ redis, log, keyPrefix: `pulsegate-test:${randomUUID()}`, idleMs: 60_000 });
      const session = await store.create("admin-token", { kind: "admin" });
      const found = await store.get(session.id);
      expect(found?.token).toBe("admin-token");
      if (found) found.flash = { kind: "notice", text: "Saved." };
      if (found) await store.save(found);
      expect((await store.get(session.id))?.flash).toEqual({ kind: "notice", text: "Saved." });
      await store.destroy(session.id);
      expect(await store.get(session.id)).toBeUndefined();
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/in process/);
      await store.close();
    } finally {
      redis.disconnect();
    }
  });

  it("keeps sessions in process with no Redis at all", async () => {
    const store = createSessionStore({ log: recordingLog().log, keyPrefix: "unused", idleMs: 60_000 });
    const session = await store.create("admin-token", { kind: "admin" });
    expect((await store.get(session.id))?.token).toBe("admin-token");
  });
});
