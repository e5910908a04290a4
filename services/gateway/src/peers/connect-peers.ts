import { connectClient, type DeadlineClient } from "@pulsegate/grpc";
import { alerts, auth, monitors } from "@pulsegate/proto";
import { createHealthChecker, type HealthChecker } from "./check-grpc-health.ts";

export type PeerName = "auth" | "alerts" | "monitors";
export type PeerAddresses = Record<PeerName, string>;

/** Fully qualified service names, as registered with grpc.health.v1 by each peer. */
export const PEER_SERVICE_NAMES: Record<PeerName, string> = {
  auth: "auth.v1.AuthService",
  alerts: "alerts.v1.AlertsService",
  monitors: "monitors.v1.MonitorsService",
};

/** The gRPC services behind the gateway, one long-lived channel each, every call under GRPC_TIMEOUT_MS. */
export type Peers = {
  auth: DeadlineClient<auth.AuthServiceClient>;
  alerts: DeadlineClient<alerts.AlertsServiceClient>;
  monitors: DeadlineClient<monitors.MonitorsServiceClient>;
  health: Record<PeerName, HealthChecker>;
  /**
   * The deadline of alerts' TestChannel, which waits for the channel's receiver: GRPC_TIMEOUT_MS
   * after the longest test alerts may run (channelTestMs), so the gateway never gives up on a test
   * alerts is still sending.
   */
  channelTestDeadlineMs: number;
  close: () => void;
};

/**
 * The longest channel test under alerts' NOTIFY_ATTEMPT_TIMEOUT_MS: an incident tool gets the test
 * and then its resolve, and each send is signing then sending, each bounded by the attempt timeout.
 * Alerts' lease on a test in flight lasts as long, plus a margin.
 */
export const channelTestMs = (attemptTimeoutMs: number): number => 4 * attemptTimeoutMs;

export function connectPeers(
  addresses: PeerAddresses,
  deadlineMs: number,
  options: { notifyAttemptTimeoutMs?: number } = {},
): Peers {
  const clients = {
    auth: connectClient(auth.AuthServiceClient, addresses.auth, { deadlineMs }),
    alerts: connectClient(alerts.AlertsServiceClient, addresses.alerts, { deadlineMs }),
    monitors: connectClient(monitors.MonitorsServiceClient, addresses.monitors, { deadlineMs }),
  };
  const health = {
    auth: createHealthChecker(addresses.auth, deadlineMs),
    alerts: createHealthChecker(addresses.alerts, deadlineMs),
    monitors: createHealthChecker(addresses.monitors, deadlineMs),
  };
  return {
    ...clients,
    health,
    channelTestDeadlineMs: channelTestMs(options.notifyAttemptTimeoutMs ?? 5_000) + deadlineMs,
    close: () => {
      for (const client of Object.values(clients)) client.close();
      for (const checker of Object.values(health)) checker.close();
    },
  };
}
