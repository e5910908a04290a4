/**
 * The methods of our services that a client sends again when a call fails UNAVAILABLE: the replica
 * it went to died under it (SIGKILL, a node lost) or could not reach its database. Only calls that
 * can be repeated without changing the outcome: reads, and checks whose one effect is the same
 * however often it happens (VerifySignature and AuthenticateApiKey note when a secret or key was
 * last used; Sign computes a signature). A write is never here: a call that failed after reaching a
 * replica may have been applied there before it died, and a second copy would be applied twice. The
 * batch writes (TriggerAlert, RecordPing, ResolveAlertsByKey) send again only their items that carry
 * an idempotency key, item by item (the gateway's peers/resend-keyed-items.ts).
 */
export const IDEMPOTENT_METHODS: Readonly<Record<string, readonly string[]>> = {
  "auth.v1.AuthService": [
    "GetTeam",
    "ListTeams",
    "VerifySignature",
    "Sign",
    "ListApiKeys",
    "GetApiKey",
    "AuthenticateApiKey",
    "ListAuditEntries",
    "GetTeamAccess",
  ],
  "alerts.v1.AlertsService": [
    "GetWebhook",
    "ListWebhooks",
    "LookupWebhook",
    "ResolveWebhook",
    "AuthenticateWebhook",
    "GetAlert",
    "ListAlerts",
    "ListOccurrences",
    "ListChannels",
    "DescribeChannel",
    "GetNotificationPolicy",
    "ListDeliveries",
    "GetDelivery",
    "PreviewTriggers",
    "ListSilences",
    "GetAlertUsage",
  ],
  "monitors.v1.MonitorsService": [
    "GetMonitor",
    "ListMonitors",
    "ListPings",
    "LookupMonitor",
    "LookupMonitors",
    "ResolveMonitor",
    "ResolveMonitors",
    "DescribeSpool",
    "PreviewPings",
    "LookupBadge",
    "ResolveBadge",
    "GetHeartbeatUsage",
  ],
  "grpc.health.v1.Health": ["Check"],
};

/**
 * Attempts in all (the first and at most two more), the backoff between them (grpc-js adds
 * jitter), and on which status. UNAVAILABLE alone: the call did not reach a healthy replica.
 * DEADLINE_EXCEEDED is not retried (the deadline covers every attempt, and it is spent).
 */
const RETRY_POLICY = {
  maxAttempts: 3,
  initialBackoff: "0.05s",
  maxBackoff: "0.5s",
  backoffMultiplier: 4,
  retryableStatusCodes: ["UNAVAILABLE"],
};

/**
 * Retries stop while more fail than succeed (each failure costs a token, each success gives a
 * tenth back; below half of maxTokens nothing is retried): when every replica is away, or their
 * database is, a client does not multiply its calls by three.
 */
const RETRY_THROTTLING = { maxTokens: 10, tokenRatio: 0.1 };

/** The part of a channel's service config that retries the methods above. */
export function retryConfig() {
  return {
    methodConfig: [
      {
        name: Object.entries(IDEMPOTENT_METHODS).flatMap(([service, methods]) =>
          methods.map((method) => ({ service, method })),
        ),
        retryPolicy: RETRY_POLICY,
      },
    ],
    retryThrottling: RETRY_THROTTLING,
  };
}
