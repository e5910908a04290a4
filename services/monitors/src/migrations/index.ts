import { CreateMonitors } from "./0001-create-monitors.ts";
import { PingsRetentionIndex } from "./0002-pings-retention-index.ts";
import { Jsonb } from "./0003-jsonb.ts";
import { SchedulesRunsBadges } from "./0004-schedules-runs-badges.ts";
import { Reminders } from "./0005-reminders.ts";
import { ReplayProtection } from "./0006-replay-protection.ts";
import { IdempotencyKeys } from "./0007-idempotency-keys.ts";
import { SignatureSchemes } from "./0008-signature-schemes.ts";
import { DeletesAndUniqueNames } from "./0009-deletes-and-unique-names.ts";
import { DueChecks } from "./0010-due-checks.ts";
import { HotPingUpdates } from "./0011-hot-ping-updates.ts";
import { PingsWithoutForeignKey } from "./0012-pings-without-foreign-key.ts";
import { PingsOneMonitorIndex } from "./0013-pings-one-monitor-index.ts";

/** Committed migrations, in order. Names are stable: never rename one that shipped. */
export const migrations = [
  { name: "0001-create-monitors", class: CreateMonitors },
  { name: "0002-pings-retention-index", class: PingsRetentionIndex },
  { name: "0003-jsonb", class: Jsonb },
  { name: "0004-schedules-runs-badges", class: SchedulesRunsBadges },
  { name: "0005-reminders", class: Reminders },
  { name: "0006-replay-protection", class: ReplayProtection },
  { name: "0007-idempotency-keys", class: IdempotencyKeys },
  { name: "0008-signature-schemes", class: SignatureSchemes },
  { name: "0009-deletes-and-unique-names", class: DeletesAndUniqueNames },
  { name: "0010-due-checks", class: DueChecks },
  { name: "0011-hot-ping-updates", class: HotPingUpdates },
  { name: "0012-pings-without-foreign-key", class: PingsWithoutForeignKey },
  { name: "0013-pings-one-monitor-index", class: PingsOneMonitorIndex },
];
