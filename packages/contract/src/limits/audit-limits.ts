/** Bounds of what one RecordAuditEntries call may carry, enforced by auth (audit/audit-log.ts). */
export const AUDIT_LIMITS = {
  maxBatch: 500,
  maxTextLength: 200,
  maxDetailsBytes: 4_096,
} as const;
