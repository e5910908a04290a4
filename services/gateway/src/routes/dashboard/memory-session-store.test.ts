import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Actor } from "../admin/actor.ts";
import { createMemorySessionStore } from "./memory-session-store.ts";
import { keyPrincipal, type Session, SessionLimitReached, type SessionStore } from "./session-store.ts";

const admin: Actor = { kind: "admin" };
const keyOf = (id: string, teamId = "team_a"): Actor => ({
  kind: "api_key",
  id,
  teamId,
  name: id,
  scope: "read",
});

const limits = { perPrincipal: 3, perTeam: 5, max: 8 };

/** The session is live in `store`: found under its id, with the token and actor it was made with. */
async function expectLive(store: SessionStore, session: Session | undefined): Promise<void> {
  if (!session) throw new Error("expected a session");
  expect(await store.get(session.id)).toMatchObject({ id: session.id, token: session.token, actor: session.actor });
}

describe("the in-process session store", () => {
  beforeEach(() => {
    // A fake clock: the idle timeout is crossed by advancing time, not by sleeping past it.
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("ends a session after the idle timeout and on sign-out; each use starts the idle time again", async () => {
    const store = createMemorySessionStore({ idleMs: 50, limits });
    const first = await store.create("token-1", admin);
    expect((await store.get(first.id))?.token).toBe("token-1");
    expect(first.id).not.toBe(first.csrfToken);
    await store.destroy(first.id);
    expect(await store.get(first.id)).toBeUndefined();

    const second = await store.create("token-2", admin);
    vi.advanceTimersByTime(49);
    await expectLive(store, second);
    vi.advanceTimersByTime(49);
    await expectLive(store, second);
    vi.advanceTimersByTime(50);
    expect(await store.get(second.id)).toBeUndefined();
  });

  it("keeps at most perPrincipal sessions of one principal, dropping that principal's least recently used", async () => {
    const store = createMemorySessionStore({ idleMs: 60_000, limits });
    const adminSession = await store.create("admin-token", admin);
    const [a, b, c] = [
      await store.create("key", keyOf("k1")),
      await store.create("key", keyOf("k1")),
      await store.create("key", keyOf("k1")),
    ];
    vi.advanceTimersByTime(1);
    // Using the oldest makes the second the least recently used.
    await expectLive(store, a);
    const d = await store.create("key", keyOf("k1"));
    expect(await store.get(b?.id)).toBeUndefined();
    for (const live of [a, c, d]) await expectLive(store, live);
    // A thousand more sign-ins of that key never touch another principal's session.
    for (let i = 0; i < 1_000; i++) await store.create("key", keyOf("k1"));
    await expectLive(store, adminSession);
  });

  it("keeps at most perTeam sessions of one team's keys, dropping only that team's", async () => {
    const store = createMemorySessionStore({ idleMs: 60_000, limits });
    const otherTeam = await store.create("other", keyOf("k9", "team_b"));
    const first = await store.create("k1", keyOf("k1"));
    const others = [];
    for (const key of ["k2", "k3", "k4", "k5"]) others.push(await store.create(key, keyOf(key)));
    const sixth = await store.create("k6", keyOf("k6"));
    expect(await store.get(first.id)).toBeUndefined();
    for (const live of [...others, sixth]) await expectLive(store, live);
    await expectLive(store, otherTeam);
  });

  it("when full, refuses principals with no session instead of evicting anyone; the admin and principals with a session still sign in", async () => {
    const store = createMemorySessionStore({ idleMs: 60_000, limits });
    const held = [];
    for (const team of ["t1", "t2"]) {
      for (const key of ["k1", "k2"]) {
        for (let i = 0; i < 2; i++) held.push(await store.create(key, keyOf(`${team}-${key}`, team)));
      }
    }
    expect(held).toHaveLength(limits.max);
    await expect(store.create("new", keyOf("newcomer", "t3"))).rejects.toBeInstanceOf(SessionLimitReached);
    for (const session of held) await expectLive(store, session);

    // A principal that holds sessions takes the place of its own oldest; the admin has room of its own.
    const again = await store.create("again", keyOf("t1-k1", "t1"));
    expect(await store.get(held[0]?.id)).toBeUndefined();
    await expectLive(store, again);
    for (const session of held.slice(1)) await expectLive(store, session);
    await expectLive(store, await store.create("admin-token", admin));

    // Sessions that ended idle make room again.
    vi.advanceTimersByTime(60_000);
    await expectLive(store, await store.create("new", keyOf("newcomer", "t3")));
  });

  it("ends every session of a principal at once (a revoked key), and keeps a changed flash", async () => {
    const store = createMemorySessionStore({ idleMs: 60_000, limits });
    const keySessions = [await store.create("k", keyOf("k1")), await store.create("k", keyOf("k1"))];
    const other = await store.create("k2", keyOf("k2"));
    await store.destroyPrincipal(keyPrincipal("k1"));
    for (const session of keySessions) expect(await store.get(session.id)).toBeUndefined();
    const live = await store.get(other.id);
    expect(live).toMatchObject({ id: other.id, token: "k2", actor: keyOf("k2") });

    if (live) live.flash = { kind: "notice", text: "Saved." };
    if (live) await store.save(live);
    expect((await store.get(other.id))?.flash).toEqual({ kind: "notice", text: "Saved." });
  });
});
