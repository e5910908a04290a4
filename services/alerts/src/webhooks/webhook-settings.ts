import type { FieldProblem } from "@pulsegate/contract/errors";
import { WEBHOOK_LIMITS } from "@pulsegate/contract/limits";
import { nameProblem } from "@pulsegate/contract/text";
import {
  isOneOf,
  isSeverity,
  SEVERITIES,
  type Severity,
  SIGNATURE_SCHEMES,
  type SignatureScheme,
  WEBHOOK_SOURCES,
  type WebhookSource,
} from "@pulsegate/contract/vocabulary";
import { type FilterRule, validateFilterRules } from "../filter-rules/index.ts";

export type WebhookSettingsInput = {
  name?: string | undefined;
  defaultSeverity?: string | undefined;
  enabled?: boolean | undefined;
  filterRules?: unknown;
  rateLimitPerMinute?: number | undefined;
  reopenWindowSeconds?: number | undefined;
  /** 0: no reminders. */
  repeatIntervalSeconds?: number | undefined;
  requireTimestamp?: boolean | undefined;
  /** Creation only: fixed for the webhook's life. */
  source?: string | undefined;
  signatureScheme?: string | undefined;
};

export type WebhookSettings = {
  name?: string;
  defaultSeverity?: Severity;
  enabled?: boolean;
  filterRules?: FilterRule[];
  rateLimitPerMinute?: number;
  reopenWindowSeconds?: number;
  /** null: no reminders. */
  repeatIntervalSeconds?: number | null;
  requireTimestamp?: boolean;
  source?: WebhookSource;
  signatureScheme?: SignatureScheme;
};

/** Checks the given settings; absent ones stay absent (the caller applies defaults). */
export function checkWebhookSettings(input: WebhookSettingsInput): {
  settings: WebhookSettings;
  errors: FieldProblem[];
} {
  const errors: FieldProblem[] = [];
  const settings: WebhookSettings = {};
  if (input.name !== undefined) {
    const name = input.name.trim();
    const problem = nameProblem(name, WEBHOOK_LIMITS.nameMaxLength);
    if (problem) errors.push(problem);
    else settings.name = name;
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
  if (input.requireTimestamp !== undefined) settings.requireTimestamp = input.requireTimestamp;
  if (input.source !== undefined) {
    if (isOneOf(WEBHOOK_SOURCES, input.source)) settings.source = input.source;
    else errors.push({ field: "source", message: `source must be one of ${WEBHOOK_SOURCES.join(", ")}.` });
  }
  if (input.signatureScheme !== undefined) {
    const scheme = checkSignatureScheme(input.signatureScheme);
    if ("problem" in scheme) errors.push(scheme.problem);
    else settings.signatureScheme = scheme.scheme;
  }
  if (input.repeatIntervalSeconds !== undefined) {
    const checked = checkRepeatInterval(input.repeatIntervalSeconds);
    if (checked === undefined) errors.push(repeatIntervalError());
    else settings.repeatIntervalSeconds = checked;
  }
  return { settings, errors };
}

/** 0 turns reminders off (null); otherwise 60 s to 7 days; undefined when out of range. */
export function checkRepeatInterval(value: number): number | null | undefined {
  if (value === 0) return null;
  const { minRepeatIntervalSeconds: min, maxRepeatIntervalSeconds: max } = WEBHOOK_LIMITS;
  return Number.isInteger(value) && value >= min && value <= max ? value : undefined;
}

function repeatIntervalError(): FieldProblem {
  return {
    field: "repeatIntervalSeconds",
    message: `repeatIntervalSeconds must be 0 (no reminders) or a whole number from ${WEBHOOK_LIMITS.minRepeatIntervalSeconds} to ${WEBHOOK_LIMITS.maxRepeatIntervalSeconds}.`,
  };
}

/**
 * What a webhook's source rules out: how a signature is checked (a timestamp in it, a signature
 * scheme) concerns signed webhooks only. Alertmanager signs nothing; its bearer token is checked
 * instead, so a scheme given for one would be a setting that does nothing.
 */
export function sourceProblems(
  source: WebhookSource,
  settings: Pick<WebhookSettings, "requireTimestamp" | "signatureScheme">,
): FieldProblem[] {
  if (source !== "alertmanager") return [];
  const problems: FieldProblem[] = [];
  if (settings.requireTimestamp === true) {
    problems.push({
      field: "requireTimestamp",
      message:
        "requireTimestamp applies to signed webhooks only: an Alertmanager webhook is authorised by its bearer token.",
    });
  }
  if (settings.signatureScheme !== undefined) {
    problems.push({
      field: "signatureScheme",
      message:
        "signatureScheme applies to signed webhooks only: an Alertmanager webhook is authorised by its bearer token.",
    });
  }
  return problems;
}

/** One of the signature schemes; shared by webhooks, monitors' pings and webhook channels. */
export function checkSignatureScheme(value: string): { scheme: SignatureScheme } | { problem: FieldProblem } {
  return isOneOf(SIGNATURE_SCHEMES, value)
    ? { scheme: value }
    : {
        problem: {
          field: "signatureScheme",
          message: `signatureScheme must be one of ${SIGNATURE_SCHEMES.join(", ")}.`,
        },
      };
}
