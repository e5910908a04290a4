import type { Severity } from "@pulsegate/contract/vocabulary";
import type { FilterRule } from "../filter-rules/index.ts";

/** What a trigger needs of its webhook (kept by the webhook service's BatchReadCache). */
export type TriggerWebhook = {
  id: string;
  teamId: string;
  enabled: boolean;
  defaultSeverity: Severity;
  filterRules: FilterRule[];
  reopenWindowSeconds: number;
  /** null or absent: no reminders. */
  repeatIntervalSeconds?: number | null;
};
