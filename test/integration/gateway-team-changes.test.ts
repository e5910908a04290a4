// A team changed through one gateway replica is forgotten by every replica's verified-signature
// cache at once (Redis pub/sub), and a replica whose subscription dropped forgets everything once it is
// subscribed again, since what was announced meanwhile never reached it.
import { randomBytes } from "node:crypto";
import { createLogger } from "@pulsegate/runtime/logger";
import { connectRedis } from "@pulsegate/runtime/redis";
import { afterAll, describe, expect, it } from "vitest";
import type { LookupNotice } from "../../services/gateway/src/pipeline/lookup-notices.ts";
import { createTeamChanges } from "../../services/gateway/src/pipeline/team-changes.ts";
import { eventually } from "../support/eventually.ts";
import { hostPortOf, TcpProxy } from "../support/tcp-proxy.ts";

const log = createLogger("test", "silent");
const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const closers: (() => Promise<unknown>)[] = [];

afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

/** A gateway replica's part: what it was told to forget. */
function replica(url: string, keyPrefix: string) {
  const redis = connectRedis(url, log);
  const forgotten: string[] = [];
  const notices: LookupNotice[] = [];
  let cleared = 0;
  let lookupsCleared = 0;
  const changes = createTeamChanges({
    redis,
    keyPrefix,
    log,
    forgetTeam: (teamId) => forgotten.push(teamId),
    forgetAll: () => cleared++,
    forgetLookups: (notice) => notices.push(notice),
    forgetAllLookups: () => lookupsCleared++,
    checkEveryMs: 200,
  });
  closers.push(async () => {
    await changes.close();
    redis.disconnect();
  });
  return { changes, forgotten, notices, cleared: () => cleared, lookupsCleared: () => lookupsCleared };
}

describe("team changes across gateway replicas", () => {
  it("an announcement on one replica makes every replica forget the team; other deployments hear nothing", async () => {
    const prefix = `pulsegate-test:team-changes-${randomBytes(4).toString("hex")}`;
    const [one, two] = [replica(redisUrl, prefix), replica(redisUrl, prefix)];
    const elsewhere = replica(redisUrl, `${prefix}-other`);
    // Each clears once when its subscription is first in place.
    await eventually(async () => (one.cleared() && two.cleared() && elsewhere.cleared() ? true : undefined));

    await one.changes.announce("team_a");
    // Forgotten here before the announcement is answered, and on the other replica a moment later.
    expect(one.forgotten[0]).toBe("team_a");
    await eventually(async () => (two.forgotten.includes("team_a") ? true : undefined), { timeoutMs: 1_000 });
    await new Promise((done) => setTimeout(done, 100));
    expect(elsewhere.forgotten).toEqual([]);
  });

  it("a deletion's look-up notice reaches every replica of the deployment, as sent", async () => {
    const prefix = `pulsegate-test:team-changes-${randomBytes(4).toString("hex")}`;
    const [one, two] = [replica(redisUrl, prefix), replica(redisUrl, prefix)];
    await eventually(async () => (one.lookupsCleared() && two.lookupsCleared() ? true : undefined));
    const sent: LookupNotice[] = [
      { kind: "webhook", webhookUrl: "w" },
      { kind: "monitor", pingUrl: "p", badgeToken: "b" },
      { kind: "team", teamId: "team_a" },
    ];
    for (const notice of sent) {
      await one.changes.announceLookups(notice);
      // Applied here before the announcement is answered (and again when it comes back on the channel).
      expect(one.notices).toContainEqual(notice);
    }
    await eventually(async () => (two.notices.length >= 3 ? true : undefined), { timeoutMs: 1_000 });
    expect(two.notices).toEqual(sent);
    expect(two.forgotten).toEqual([]);
  });

  it("a replica whose subscription dropped forgets everything once subscribed again", async () => {
    const prefix = `pulsegate-test:team-changes-${randomBytes(4).toString("hex")}`;
    const proxy = await TcpProxy.start(hostPortOf(redisUrl, 6379));
    closers.push(() => proxy.close());
    const viaProxy = new URL(redisUrl);
    viaProxy.hostname = "127.0.0.1";
    viaProxy.port = String(proxy.port);
    const announcer = replica(redisUrl, prefix);
    const cutOff = replica(viaProxy.toString(), prefix);
    await eventually(async () => (cutOff.cleared() === 1 ? true : undefined));

    await proxy.cut();
    await announcer.changes.announce("team_missed");
    await proxy.restore();
    await eventually(async () => (cutOff.cleared() === 2 ? true : undefined), { timeoutMs: 10_000 });
    expect(cutOff.forgotten).toEqual([]);
    expect(cutOff.lookupsCleared()).toBe(2);
    // And it hears the next one.
    await announcer.changes.announce("team_next");
    await eventually(async () => (cutOff.forgotten.includes("team_next") ? true : undefined), { timeoutMs: 1_000 });
  });
});
