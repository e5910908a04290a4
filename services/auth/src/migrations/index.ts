import { CreateTeams } from "./0001-create-teams.ts";
import { ApiKeysAndAuditLog } from "./0002-api-keys-and-audit-log.ts";
import { TeamsUpdatedIndex } from "./0003-teams-updated-index.ts";
import { TeamChangeNotifications } from "./0007-team-change-notifications.ts";
import { UniqueNames } from "./0008-unique-names.ts";
import { AuditPeople } from "./0009-audit-people.ts";

/** Committed migrations, in order. Names are stable: never rename one that shipped. */
export const migrations = [
  { name: "0001-create-teams", class: CreateTeams },
  { name: "0002-api-keys-and-audit-log", class: ApiKeysAndAuditLog },
  { name: "0003-teams-updated-index", class: TeamsUpdatedIndex },
  { name: "0007-team-change-notifications", class: TeamChangeNotifications },
  { name: "0008-unique-names", class: UniqueNames },
  { name: "0009-audit-people", class: AuditPeople },
];
