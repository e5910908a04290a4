import { CreateAlerts } from "./0001-create-alerts.ts";
import { Notifications } from "./0002-notifications.ts";
import { JsonbAndSetAside } from "./0003-jsonb-and-set-aside.ts";
import { OpenKeyIndexCollation } from "./0004-open-key-index-collation.ts";
import { TeamListIndex } from "./0005-team-list-index.ts";
import { SealChannelCredentials } from "./0006-seal-channel-credentials.ts";
import { OutboxTraceContext } from "./0007-outbox-trace-context.ts";
import { Reminders } from "./0008-reminders.ts";
import { ReplayProtection } from "./0009-replay-protection.ts";
import { Silences } from "./0010-silences.ts";
import { IncidentToolChannels } from "./0011-incident-tool-channels.ts";
import { EmailChannels } from "./0012-email-channels.ts";
import { ReminderSetAside } from "./0013-reminder-set-aside.ts";
import { SilenceMatcherBytes } from "./0014-silence-matcher-bytes.ts";
import { IdempotencyKeys } from "./0015-idempotency-keys.ts";
import { AlertmanagerWebhooks } from "./0016-alertmanager-webhooks.ts";
import { SignatureSchemes } from "./0017-signature-schemes.ts";
import { UniqueNamesAndTeamDeletions } from "./0018-unique-names-and-team-deletions.ts";
import { ChannelTestLeases } from "./0019-channel-test-leases.ts";
import { AlertActors } from "./0020-alert-actors.ts";
import { AcknowledgedEvents } from "./0021-acknowledged-events.ts";
import { OutboxPending } from "./0022-outbox-pending.ts";

/** Committed migrations, in order. Names are stable: never rename one that shipped. */
export const migrations = [
  { name: "0001-create-alerts", class: CreateAlerts },
  { name: "0002-notifications", class: Notifications },
  { name: "0003-jsonb-and-set-aside", class: JsonbAndSetAside },
  { name: "0004-open-key-index-collation", class: OpenKeyIndexCollation },
  { name: "0005-team-list-index", class: TeamListIndex },
  { name: "0006-seal-channel-credentials", class: SealChannelCredentials },
  { name: "0007-outbox-trace-context", class: OutboxTraceContext },
  { name: "0008-reminders", class: Reminders },
  { name: "0009-replay-protection", class: ReplayProtection },
  { name: "0010-silences", class: Silences },
  { name: "0011-incident-tool-channels", class: IncidentToolChannels },
  { name: "0012-email-channels", class: EmailChannels },
  { name: "0013-reminder-set-aside", class: ReminderSetAside },
  { name: "0014-silence-matcher-bytes", class: SilenceMatcherBytes },
  { name: "0015-idempotency-keys", class: IdempotencyKeys },
  { name: "0016-alertmanager-webhooks", class: AlertmanagerWebhooks },
  { name: "0017-signature-schemes", class: SignatureSchemes },
  { name: "0018-unique-names-and-team-deletions", class: UniqueNamesAndTeamDeletions },
  { name: "0019-channel-test-leases", class: ChannelTestLeases },
  { name: "0020-alert-actors", class: AlertActors },
  { name: "0021-acknowledged-events", class: AcknowledgedEvents },
  { name: "0022-outbox-pending", class: OutboxPending },
];
