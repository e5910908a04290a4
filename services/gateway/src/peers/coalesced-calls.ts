import { callUnary } from "@pulsegate/grpc";
import type { alerts, auth } from "@pulsegate/proto";
import { batchPerTurn } from "./batch-per-turn.ts";
import type { Peers } from "./connect-peers.ts";

/** The hot-path RPCs, one call per event-loop turn for all concurrent requests. */
export type CoalescedCalls = {
  verifySignature: (item: auth.VerifySignatureItem) => Promise<auth.VerifySignatureResult>;
  triggerAlert: (item: alerts.TriggerAlertItem) => Promise<alerts.TriggerAlertResult>;
};

export function createCoalescedCalls(peers: Peers): CoalescedCalls {
  return {
    verifySignature: batchPerTurn(
      async (items: auth.VerifySignatureItem[]) =>
        (await callUnary(peers.auth, peers.auth.verifySignature, { items }, peers.timeoutMs)).results,
    ),
    triggerAlert: batchPerTurn(
      async (items: alerts.TriggerAlertItem[]) =>
        (await callUnary(peers.alerts, peers.alerts.triggerAlert, { items }, peers.timeoutMs)).results,
    ),
  };
}
