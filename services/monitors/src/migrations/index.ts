import { CreateMonitors } from "./0001-create-monitors.ts";

/** Committed migrations, in order. Names are stable: never rename one that shipped. */
export const migrations = [{ name: "0001-create-monitors", class: CreateMonitors }];
