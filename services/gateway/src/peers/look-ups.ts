import { callUnary } from "@pulsegate/grpc";
import type { alerts, monitors } from "@pulsegate/proto";
import type { Peers } from "./connect-peers.ts";

// The gateway's look-ups by public token, the only place that names their RPCs. They call the
// deprecated Resolve* names, which the previous release's services serve too (the Lookup* names
// are new in this one): a gateway of this release may meet services of the previous one during a
// roll (docs/decisions.md, "RPC names: add, then remove"). After the next release, call
// lookupWebhook, lookupMonitors and lookupBadge here, and remove the Resolve* RPCs.

/** The webhook behind a public webhook URL's token, or undefined. */
export async function lookupWebhook(peers: Peers, webhookUrl: string): Promise<alerts.Webhook | undefined> {
  return (await callUnary(peers.alerts, "resolveWebhook", { webhookUrl })).webhook;
}

/** The monitor behind each ping URL's token, in order (an entry without a monitor: none). */
export async function lookupMonitors(peers: Peers, pingUrls: string[]): Promise<{ monitor?: monitors.Monitor }[]> {
  return (await callUnary(peers.monitors, "resolveMonitors", { pingUrls })).monitors;
}

/** The monitor behind a status badge's token, or undefined. */
export async function lookupBadge(peers: Peers, badgeToken: string): Promise<monitors.Monitor | undefined> {
  return (await callUnary(peers.monitors, "resolveBadge", { badgeToken })).monitor;
}
