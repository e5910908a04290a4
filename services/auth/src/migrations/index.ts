import { CreateTeams } from "./0001-create-teams.ts";

/** Committed migrations, in order. Names are stable: never rename one that shipped. */
export const migrations = [{ name: "0001-create-teams", class: CreateTeams }];
