import { callUnary } from "@pulsegate/grpc";
import type { alerts, auth } from "@pulsegate/proto";
import { traceparentOf } from "@pulsegate/telemetry";
import { createVerifiedCache } from "../pipeline/verified-cache.ts";
import { batchPerTurn } from "./batch-per-turn.ts";
import type { Peers } from "./connect-peers.ts";
import { resendKeyedItems } from "./resend-keyed-items.ts";

/** The hot-path RPCs, coalesced: concurrent requests share one call (see batchPerTurn). */
export type CoalescedCalls = {
  /** auth's verdict on a signature (VerifySignature), with the team's access when it is valid. */
  checkSignature: (item: auth.VerifySignatureItem) => Promise<auth.VerifySignatureResult>;
  triggerAlert: (item: alerts.TriggerAlertItem) => Promise<alerts.TriggerAlertResult>;
  resolveByKey: (item: alerts.ResolveByKeyItem) => Promise<alerts.ResolveByKeyResult>;
  /** A team's access for requests authorised without a signature (undefined: no such team). */
  teamAccess: (teamId: string) => Promise<auth.TeamAccess | undefined>;
  /** Forgets the team's cached verifications (its quotas, subscription or secret changed). */
  forgetTeam: (teamId: string) => void;
  /** Forgets every cached verification (changes may have gone unannounced). */
  forgetAll: () => void;
};

export function createCoalescedCalls(peers: Peers, options: { verifiedCacheMs: number }): CoalescedCalls {
  const verify = batchPerTurn(
    async (items: auth.VerifySignatureItem[]) => (await callUnary(peers.auth, "verifySignature", { items })).results,
    { name: "VerifySignature" },
  );
  const verified = createVerifiedCache(options.verifiedCacheMs);
  // Two lanes, one batch in flight each, a key always in the same lane: two batches in flight never
  // fold into the same alert, so neither waits on the other's row lock until its commit (a storm on
  // one key: PostgreSQL per fold halved, docs/performance.md), while new alerts of many keys keep two
  // batches overlapping. Items without a key (a new alert each time) alternate.
  const triggerLanes = [0, 1].map(() =>
    batchPerTurn(
      resendKeyedItems(
        async (items: alerts.TriggerAlertItem[]) => (await callUnary(peers.alerts, "triggerAlert", { items })).results,
      ),
      { name: "TriggerAlert", maxInFlight: 1 },
    ),
  );
  let unkeyed = 0;
  const trigger = (item: alerts.TriggerAlertItem) => {
    const lane = item.groupKey === "" ? unkeyed++ % 2 : laneOfKey(item.teamId, item.groupKey);
    return (triggerLanes[lane] as (typeof triggerLanes)[number])(item);
  };
  const resolve = batchPerTurn(
    resendKeyedItems(
      async (items: alerts.ResolveByKeyItem[]) =>
        (await callUnary(peers.alerts, "resolveAlertsByKey", { items, dryRun: false })).results,
    ),
    { name: "ResolveAlertsByKey" },
  );
  const access = batchPerTurn(
    async (teamIds: string[]) => (await callUnary(peers.auth, "getTeamAccess", { teamIds })).results,
    { name: "GetTeamAccess" },
  );
  return {
    checkSignature: async (item) => {
      const key = verified.keyOf(item);
      const hit = key === null ? undefined : verified.get(key);
      if (hit) return hit;
      const version = verified.version();
      const result = await verify(item);
      if (key !== null) verified.set(key, result, version);
      return result;
    },
    forgetTeam: (teamId) => verified.forgetTeam(teamId),
    forgetAll: () => verified.forgetAll(),
    // Each item carries its request's trace context: the alert's notifications continue that trace.
    triggerAlert: (item) => trigger({ ...item, traceparent: traceparentOf() }),
    resolveByKey: resolve,
    teamAccess: async (teamId) => (await access(teamId)).access,
  };
}

/** 0 or 1, the same for every trigger of one (team, group key): FNV-1a over both. */
function laneOfKey(teamId: string, groupKey: string): number {
  let hash = 0x811c9dc5;
  for (const text of [teamId, groupKey]) {
    for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
    hash = Math.imul(hash ^ 0xff, 0x01000193);
  }
  return (hash >>> 0) % 2;
}
