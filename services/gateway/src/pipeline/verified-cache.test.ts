import { auth } from "@pulsegate/proto";
import { describe, expect, it } from "vitest";
import { createVerifiedCache } from "./verified-cache.ts";

const access = {
  subscriptionExpiresAt: undefined,
  subscriptionActive: true,
  alertQuotaMonthly: 0,
  heartbeatQuotaMonthly: 0,
};
const valid = { outcome: auth.VerifyOutcome.VERIFY_OUTCOME_VALID_CURRENT, access };
const item = (
  payload: string,
  signature = "a".repeat(64),
  teamId = "team_1",
  format: auth.SignatureFormat = auth.SignatureFormat.SIGNATURE_FORMAT_HEX,
) => ({ teamId, signature, payload: Buffer.from(payload), format });

describe("createVerifiedCache", () => {
  it("reuses a valid verdict for the same team, signature and body until it expires", () => {
    let time = 1_000;
    const cache = createVerifiedCache(1_000, () => time);
    const key = cache.keyOf(item("")) as string;
    cache.set(key, valid, cache.version());
    expect(cache.get(key)).toEqual(valid);
    expect(cache.get(cache.keyOf(item("", "A".repeat(64))) as string)).toEqual(valid); // hex case
    expect(cache.get(cache.keyOf(item("x")) as string)).toBeUndefined();
    expect(cache.get(cache.keyOf(item("", "b".repeat(64))) as string)).toBeUndefined();
    expect(cache.get(cache.keyOf(item("", "a".repeat(64), "team_2")) as string)).toBeUndefined();
    time = 2_000;
    expect(cache.get(key)).toEqual(valid);
    time = 2_001;
    expect(cache.get(key)).toBeUndefined();
  });

  it("never keeps an invalid verdict, nor anything with a zero TTL or a large body", () => {
    const cache = createVerifiedCache(1_000);
    const key = cache.keyOf(item("{}")) as string;
    cache.set(key, { outcome: auth.VerifyOutcome.VERIFY_OUTCOME_INVALID, access }, cache.version());
    expect(cache.get(key)).toBeUndefined();
    expect(createVerifiedCache(0).keyOf(item(""))).toBeNull();
    expect(cache.keyOf(item("x".repeat(65 * 1024)))).toBeNull();
  });

  it("keeps no Standard Webhooks verdict: each message signs its own id and timestamp, in case-sensitive base64", () => {
    const cache = createVerifiedCache(1_000);
    const signature = `v1,${Buffer.alloc(32, 7).toString("base64")}`;
    const standard = item(
      "msg_1.1700000000.{}",
      signature,
      "team_1",
      auth.SignatureFormat.SIGNATURE_FORMAT_STANDARD_WEBHOOKS,
    );
    expect(cache.keyOf(standard)).toBeNull();
  });

  it("forgets a team's verdicts when the team changes", () => {
    const cache = createVerifiedCache(1_000);
    const mine = cache.keyOf(item("")) as string;
    const theirs = cache.keyOf(item("", "a".repeat(64), "team_2")) as string;
    cache.set(mine, valid, cache.version());
    cache.set(theirs, valid, cache.version());
    cache.forgetTeam("team_1");
    expect(cache.get(mine)).toBeUndefined();
    expect(cache.get(theirs)).toEqual(valid);
    cache.forgetAll();
    expect(cache.get(theirs)).toBeUndefined();
  });

  it("does not keep a verdict asked for before a change and answered after it", () => {
    const cache = createVerifiedCache(1_000);
    const key = cache.keyOf(item("")) as string;
    const asked = cache.version();
    cache.forgetTeam("team_1"); // the rotation's announcement arrives while auth is answering
    cache.set(key, valid, asked);
    expect(cache.get(key)).toBeUndefined();
    cache.set(key, valid, cache.version());
    expect(cache.get(key)).toEqual(valid);
  });

  it("holds at most 20,000 verdicts under a stream of new bodies, and keeps the one asked for often", () => {
    let time = 1_000;
    const cache = createVerifiedCache(1_000, () => time);
    const ping = cache.keyOf(item("")) as string;
    cache.set(ping, valid, 0);
    // A new trigger body every 10 ms for 5 minutes, each asked for once; a ping's body every 100 ms.
    for (let n = 0; n < 30_000; n++) {
      time = 1_000 + n * 10;
      cache.set(cache.keyOf(item(`{"group_key":"k-${n}"}`, (n % 16).toString(16).repeat(64))) as string, valid, 0);
      if (n % 10 === 0 && cache.get(ping) === undefined) cache.set(ping, valid, 0);
    }
    expect(cache.size()).toBe(20_000);
    expect(cache.get(ping)).toEqual(valid);
    const last = cache.keyOf(item(`{"group_key":"k-29999"}`, (29_999 % 16).toString(16).repeat(64))) as string;
    expect(cache.get(last)).toEqual(valid);
    const first = cache.keyOf(item(`{"group_key":"k-0"}`, "0".repeat(64))) as string;
    expect(cache.get(first)).toBeUndefined();
  });

  it("keeps a verdict set again until its new expiry, however many expire around it", () => {
    let time = 1_000;
    const cache = createVerifiedCache(1_000, () => time);
    const ping = cache.keyOf(item("")) as string;
    cache.set(ping, valid, 0);
    for (let n = 1; n <= 50; n++) {
      time = 1_000 + n * 100;
      if (n % 5 === 0) cache.set(ping, valid, 0);
      cache.set(cache.keyOf(item(`${n}`)) as string, valid, 0);
    }
    expect(cache.get(ping)).toEqual(valid);
  });
});
