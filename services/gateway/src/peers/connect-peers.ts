import { connectClient } from "@pulsegate/grpc";
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

/** The gRPC services behind the gateway, one long-lived channel each. */
export type Peers = {
  auth: auth.AuthServiceClient;
  alerts: alerts.AlertsServiceClient;
  monitors: monitors.MonitorsServiceClient;
  health: Record<PeerName, HealthChecker>;
  /** Deadline of every call, in milliseconds. */
  timeoutMs: number;
  close: () => void;
};

export function connectPeers(addresses: PeerAddresses, timeoutMs: number): Peers {
  const clients = {
    auth: connectClient(auth.AuthServiceClient, addresses.auth),
    alerts: connectClient(alerts.AlertsServiceClient, addresses.alerts),
    monitors: connectClient(monitors.MonitorsServiceClient, addresses.monitors),
  };
  const health = {
    auth: createHealthChecker(addresses.auth),
    alerts: createHealthChecker(addresses.alerts),
    monitors: createHealthChecker(addresses.monitors),
  };
  return {
    ...clients,
    health,
    timeoutMs,
    close: () => {
      for (const client of Object.values(clients)) client.close();
      for (const checker of Object.values(health)) checker.close();
    },
  };
}
