/**
 * Bounds of an Alertmanager payload (POST /api/alerts/alertmanager/{webhookUrl}, docs/integrations.md),
 * enforced by the gateway before any alert is applied. Each alert becomes one trigger or one resolve,
 * so this bounds the work one request can ask for; Alertmanager's `max_alerts` keeps its payloads
 * under it.
 */
export const ALERTMANAGER_LIMITS = {
  maxAlertsPerPayload: 500,
  /** Alertmanager's fingerprint is 16 hex digits; it becomes the group key, so it has the group key's bound. */
  fingerprintMaxLength: 200,
} as const;
