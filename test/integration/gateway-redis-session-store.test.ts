import { randomUUID } from "node:crypto";
import { createLogger } from "@pulsegate/runtime/logger";
import { connectRedis } from "@pulsegate/runtime/redis";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../services/gateway/src/routes/admin/actor.ts";
import { createRedisSessionStore } from "../../services/gateway/src/routes/dashboard/redis-session-store.ts";
import {
  keyPrincipal,
  type Session,
  type SessionStore,
} from "../../services/gateway/src/routes/dashboard/session-store.ts";
import { REDIS_URL } from "../../services/gateway/src/testing/build-test-app.ts";

const admin: Actor = { kind: "admin" };
const keyOf = (id: string, teamId = "team_a"): Actor => ({ kind: "api_key", id, teamId, name: id, scope: "write" });
const limits = { perPrincipal: 3, perTeam: 5 };
const IDLE_MS = 60_000;

/** The session is live in `store`: found under its id, with the token and actor it was made with. */
async function expectLive(store: SessionStore, session: Session | undefined): Promise<void> {
  if (!session) throw new Error("expected a session");
  expect(await store.get(session.id)).toMatchObject({ id: session.id, token: session.token, actor: session.actor });
}

describe("sessions in Redis", () => {
  let redis: Redis;
  const prefixes: string[] = [];
  /** Two stores on one Redis, as two gateway replicas have. */
  function replicas(): [SessionStore, SessionStore, string] {
    const keyPrefix = `pulsegate-test:${randomUUID()}`;
    prefixes.push(keyPrefix);
    const make = () => createRedisSessionStore({ redis, keyPrefix, idleMs: IDLE_MS, limits });
    return [make(), make(), keyPrefix];
  }

  beforeAll(async () => {
    redis = connectRedis(REDIS_URL, createLogger("gateway-test", "silent"));
    if (redis.status !== "ready") await new Promise((resolve) => redis.once("ready", resolve));
  });
  afterAll(async () => {
    for (const prefix of prefixes) {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
    }
    redis.disconnect();
  });

  it("are shared by every replica: found, changed and ended on any", async () => {
    const [one, two] = replicas();
    const session = await one.create("admin-token", admin);
    const there = await two.get(session.id);
    expect(there).toMatchObject({ id: session.id, token: "admin-token", actor: admin, csrfToken: session.csrfToken });

    if (there) there.flash = { kind: "secret", title: "New secret", secret: "s3cret", note: "Copy it." };
    if (there) await two.save(there);
    expect((await one.get(session.id))?.flash).toEqual(there?.flash);

    await two.destroy(session.id);
    expect(await one.get(session.id)).toBeUndefined();
    // Saving a session ended elsewhere does not bring it back.
    if (there) await two.save(there);
    expect(await one.get(session.id)).toBeUndefined();
  });

  it("keep at most perPrincipal per principal and perTeam per team, dropping only that principal's or team's oldest", async () => {
    const [one, two] = replicas();
    const adminSession = await one.create("admin-token", admin);
    const otherTeam = await one.create("other", keyOf("k9", "team_b"));
    const first = await one.create("k1", keyOf("k1"));
    const second = await two.create("k1", keyOf("k1"));
    const third = await one.create("k1", keyOf("k1"));
    // Using the first makes the second the least recently used.
    await expectLive(two, first);
    const fourth = await two.create("k1", keyOf("k1"));
    expect(await one.get(second.id)).toBeUndefined();
    for (const live of [first, third, fourth]) await expectLive(one, live);

    // Team a: k1's three and k2's two fill it; one more drops the team's least recently used.
    const k2 = [await one.create("k2", keyOf("k2")), await two.create("k2", keyOf("k2"))];
    const k3 = await one.create("k3", keyOf("k3"));
    expect(await one.get(first.id)).toBeUndefined();
    for (const live of [third, fourth, ...k2, k3]) await expectLive(two, live);

    for (let i = 0; i < 200; i++) await (i % 2 === 0 ? one : two).create("k1", keyOf("k1"));
    await expectLive(one, adminSession);
    await expectLive(two, otherTeam);
  });

  it("hold no usable credential: keys are hashes of the id, records sealed under a key only the id gives", async () => {
    const [one, , keyPrefix] = replicas();
    const token = `pgk_${"x".repeat(43)}`;
    const session = await one.create(token, keyOf("k1"));
    const keys = await redis.keys(`${keyPrefix}*`);
    expect(keys.length).toBeGreaterThan(0);
    const records = [];
    for (const key of keys) {
      expect(key).not.toContain(session.id);
      const type = await redis.type(key);
      if (type === "zset") {
        // A principal's or team's index of its sessions: this one's entry, by a hash, never the id.
        const members = await redis.zrange(key, "0", "-1");
        expect(members).toHaveLength(1);
        expect(members[0]).not.toContain(session.id);
      } else if (key.includes(":session:")) records.push({ key, value: (await redis.getBuffer(key)) as Buffer });
      else expect(await redis.get(key)).toMatch(/^\d+$/); // the use counter
    }
    expect(records).toHaveLength(1);
    const [record] = records;
    const raw = Buffer.from(session.id, "base64url");
    for (const secret of [Buffer.from(token), Buffer.from(session.id), Buffer.from(session.csrfToken), raw]) {
      expect(record?.value.includes(secret)).toBe(false);
    }
    // Idle expiry is Redis's: the record lives the idle time from its last use.
    const ttl = await redis.pttl(record?.key ?? "");
    expect(ttl).toBeGreaterThan(IDLE_MS - 5_000);
    expect(ttl).toBeLessThanOrEqual(IDLE_MS);

    // A record moved under another session's key, or altered, opens for no one.
    const other = await one.create("admin-token", admin);
    const otherKey = (await redis.keys(`${keyPrefix}*`)).find(
      (key) => key !== record?.key && key.includes(":session:"),
    );
    await redis.set(otherKey ?? "", record?.value ?? "", "PX", IDLE_MS);
    expect(await one.get(other.id)).toBeUndefined();
    const altered = Buffer.from(record?.value ?? "");
    altered[altered.length - 1] = (altered[altered.length - 1] ?? 0) ^ 1;
    await redis.set(record?.key ?? "", altered, "PX", IDLE_MS);
    expect(await one.get(session.id)).toBeUndefined();
    expect(await one.get("not-a-session-id")).toBeUndefined();
    expect(await one.get(undefined)).toBeUndefined();
  });

  it("end every session of a principal at once (a revoked key), on every replica", async () => {
    const [one, two] = replicas();
    const keySessions = [await one.create("k", keyOf("k1")), await two.create("k", keyOf("k1"))];
    const other = await one.create("k2", keyOf("k2"));
    await two.destroyPrincipal(keyPrincipal("k1"));
    for (const session of keySessions) expect(await one.get(session.id)).toBeUndefined();
    await expectLive(one, other);
  });
});
