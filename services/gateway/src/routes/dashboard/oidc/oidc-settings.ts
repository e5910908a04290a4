import type { ApiKeyScope } from "../../admin/actor.ts";

/** What one provider group grants: every team (admin), or one team (by name or id) read-write or read-only. */
export type GroupGrant = { group: string } & ({ role: "admin" } | { role: "team"; team: string; scope: ApiKeyScope });

/** Sign-in through an OpenID Connect provider (docs/sign-in.md), as configured by the OIDC_* variables. */
export type OidcSettings = {
  issuer: URL;
  clientId: string;
  clientSecret: string;
  /** In the order configured: the first that matches a person's groups decides (an admin group always wins). */
  grants: GroupGrant[];
  /** The claim (ID token or userinfo) that lists a person's groups. */
  groupsClaim: string;
  scopes: string;
  /** How often a signed-in person is checked with the provider again. */
  checkSeconds: number;
  /** The sign-in button's label. */
  label: string;
};

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** `platform=admin,payments=member:Payments,payments-ro=viewer:Payments`; throws a sentence naming what is wrong. */
export function parseGroupGrants(text: string): GroupGrant[] {
  const grants: GroupGrant[] = [];
  for (const item of text.split(",")) {
    const entry = item.trim();
    if (entry === "") continue;
    const eq = entry.indexOf("=");
    const group = entry.slice(0, eq).trim();
    const role = entry.slice(eq + 1).trim();
    if (eq <= 0 || role === "") throw new Error(`"${entry}" is not group=role`);
    if (role === "admin") {
      grants.push({ group, role: "admin" });
      continue;
    }
    const colon = role.indexOf(":");
    const kind = role.slice(0, colon);
    const team = role.slice(colon + 1).trim();
    if (colon <= 0 || team === "" || (kind !== "member" && kind !== "viewer")) {
      throw new Error(`"${role}" is not admin, member:<team> or viewer:<team>`);
    }
    grants.push({ group, role: "team", team, scope: kind === "member" ? "write" : "read" });
  }
  if (grants.length === 0) throw new Error("names no group");
  return grants;
}

/**
 * The settings when OIDC_ISSUER is set, else undefined (sign-in with tokens only). Throws a
 * sentence naming the variable at fault. The issuer must be HTTPS, but on this machine.
 */
export function oidcSettingsOf(config: {
  OIDC_ISSUER?: string | undefined;
  OIDC_CLIENT_ID?: string | undefined;
  OIDC_CLIENT_SECRET?: string | undefined;
  OIDC_GROUPS?: string | undefined;
  OIDC_GROUPS_CLAIM: string;
  OIDC_SCOPES: string;
  OIDC_CHECK_SECONDS: number;
  OIDC_NAME: string;
}): OidcSettings | undefined {
  if (config.OIDC_ISSUER === undefined) return undefined;
  const invalid = (name: string, why: string) => new Error(`Invalid configuration:\n  ${name}: ${why}`);
  let issuer: URL;
  try {
    issuer = new URL(config.OIDC_ISSUER);
  } catch {
    throw invalid("OIDC_ISSUER", "must be a URL");
  }
  if (issuer.protocol !== "https:" && !(issuer.protocol === "http:" && LOOPBACK.has(issuer.hostname))) {
    throw invalid("OIDC_ISSUER", "must be https (plain http only on localhost)");
  }
  for (const name of ["OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET", "OIDC_GROUPS"] as const) {
    if (!config[name]) throw invalid(name, "required when OIDC_ISSUER is set");
  }
  let grants: GroupGrant[];
  try {
    grants = parseGroupGrants(config.OIDC_GROUPS ?? "");
  } catch (error) {
    throw invalid("OIDC_GROUPS", (error as Error).message);
  }
  if (!config.OIDC_SCOPES.split(" ").includes("openid")) throw invalid("OIDC_SCOPES", "must include openid");
  return {
    issuer,
    clientId: config.OIDC_CLIENT_ID ?? "",
    clientSecret: config.OIDC_CLIENT_SECRET ?? "",
    grants,
    groupsClaim: config.OIDC_GROUPS_CLAIM,
    scopes: config.OIDC_SCOPES,
    checkSeconds: config.OIDC_CHECK_SECONDS,
    label: config.OIDC_NAME,
  };
}
