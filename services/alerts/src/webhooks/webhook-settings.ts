import type { ErrorDetail } from "@pulsegate/grpc";
import { type FilterRule, validateFilterRules } from "../filter-rules/index.ts";
import { isSeverity, SEVERITIES, type Severity } from "../severity.ts";

/** Defaults and bounds of a webhook's settings (docs/decisions.md). */
export const WEBHOOK_LIMITS = {
  nameMaxLength: 200,
  defaultSeverity: "sev2" as Severity,
  defaultRateLimitPerMinute: 120,
  maxRateLimitPerMinute: 100_000,
  defaultReopenWindowSeconds: 3_600,
  maxReopenWindowSeconds: 30 * 86_400,
} as const;

export type WebhookSettingsInput = {
  name?: string | undefined;
  defaultSeverity?: string | undefined;
  enabled?: boolean | undefined;
  filterRules?: unknown;
  rateLimitPerMinute?: number | undefined;
  reopenWindowSeconds?: number | undefined;
};

export type WebhookSettings = {
  name?: string;
  defaultSeverity?: Severity;
  enabled?: boolean;
  filterRules?: FilterRule[];
  rateLimitPerMinute?: number;
  reopenWindowSeconds?: number;
};

/** Checks the given settings; absent ones stay absent (the caller applies defaults). */
export function checkWebhookSettings(input: WebhookSettingsInput): {
  settings: WebhookSettings;
  errors: ErrorDetail[];
} {
  const errors: ErrorDetail[] = [];
  const settings: WebhookSettings = {};
  if (input.name !== undefined) {
    const name = input.name.trim();
    if (name.length === 0) errors.push({ field: "name", message: "name is required." });
    else if ([...name].length > WEBHOOK_LIMITS.nameMaxLength) {
      errors.push({ field: "name", message: `name must be at most ${WEBHOOK_LIMITS.nameMaxLength} characters.` });
    } else settings.name = name;
  }
  if (input.defaultSeverity !== undefined) {
    if (isSeverity(input.defaultSeverity)) settings.defaultSeverity = input.defaultSeverity;
    else errors.push({ field: "defaultSeverity", message: `defaultSeverity must be one of ${SEVERITIES.join(", ")}.` });
  }
  if (input.enabled !== undefined) settings.enabled = input.enabled;
  if (input.filterRules !== undefined) {
    const checked = validateFilterRules(input.filterRules);
    if ("errors" in checked) errors.push(...checked.errors);
    else settings.filterRules = checked.rules;
  }
  if (input.rateLimitPerMinute !== undefined) {
    const value = input.rateLimitPerMinute;
    if (Number.isInteger(value) && value >= 1 && value <= WEBHOOK_LIMITS.maxRateLimitPerMinute) {
      settings.rateLimitPerMinute = value;
    } else {
      errors.push({
        field: "rateLimitPerMinute",
        message: `rateLimitPerMinute must be a whole number from 1 to ${WEBHOOK_LIMITS.maxRateLimitPerMinute}.`,
      });
    }
  }
  if (input.reopenWindowSeconds !== undefined) {
    const value = input.reopenWindowSeconds;
    if (Number.isInteger(value) && value >= 0 && value <= WEBHOOK_LIMITS.maxReopenWindowSeconds) {
      settings.reopenWindowSeconds = value;
    } else {
      errors.push({
        field: "reopenWindowSeconds",
        message: `reopenWindowSeconds must be a whole number from 0 (never reopen) to ${WEBHOOK_LIMITS.maxReopenWindowSeconds}.`,
      });
    }
  }
  return { settings, errors };
}
