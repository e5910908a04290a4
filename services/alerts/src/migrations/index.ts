import { CreateAlerts } from "./0001-create-alerts.ts";
import { Notifications } from "./0002-notifications.ts";

/** Committed migrations, in order. Names are stable: never rename one that shipped. */
export const migrations = [
  { name: "0001-create-alerts", class: CreateAlerts },
  { name: "0002-notifications", class: Notifications },
];
