import { describe, expect, it } from "vitest";
import { loadGatewayConfig } from "../../../config.ts";
import { parseGroupGrants } from "./oidc-settings.ts";

const OIDC = {
  OIDC_ISSUER: "https://sso.example.com/realms/example",
  OIDC_CLIENT_ID: "pulsegate",
  OIDC_CLIENT_SECRET: "s3cret",
  OIDC_GROUPS: "platform=admin,payments=member:Payments,payments-ro=viewer:Payments",
};

describe("OIDC settings", () => {
  it("are off without OIDC_ISSUER", () => {
    expect(loadGatewayConfig({}).oidc).toBe(undefined);
  });

  it("read the issuer, the client, the groups and the defaults", () => {
    const oidc = loadGatewayConfig(OIDC).oidc;
    expect(oidc).toEqual({
      issuer: new URL("https://sso.example.com/realms/example"),
      clientId: "pulsegate",
      clientSecret: "s3cret",
      grants: [
        { group: "platform", role: "admin" },
        { group: "payments", role: "team", team: "Payments", scope: "write" },
        { group: "payments-ro", role: "team", team: "Payments", scope: "read" },
      ],
      groupsClaim: "groups",
      scopes: "openid profile email offline_access",
      checkSeconds: 300,
      label: "Sign in with SSO",
    });
  });

  it("name the variable at fault", () => {
    expect(() => loadGatewayConfig({ ...OIDC, OIDC_CLIENT_SECRET: "" })).toThrow(
      /OIDC_CLIENT_SECRET: required when OIDC_ISSUER is set/,
    );
    expect(() => loadGatewayConfig({ ...OIDC, OIDC_ISSUER: "http://sso.example.com" })).toThrow(
      /OIDC_ISSUER: must be https \(plain http only on localhost\)/,
    );
    expect(loadGatewayConfig({ ...OIDC, OIDC_ISSUER: "http://127.0.0.1:9000" }).oidc?.issuer.href).toBe(
      "http://127.0.0.1:9000/",
    );
    expect(() => loadGatewayConfig({ ...OIDC, OIDC_GROUPS: "platform=owner" })).toThrow(
      /OIDC_GROUPS: "owner" is not admin, member:<team> or viewer:<team>/,
    );
    expect(() => loadGatewayConfig({ ...OIDC, OIDC_SCOPES: "profile email" })).toThrow(
      /OIDC_SCOPES: must include openid/,
    );
  });

  it("parse group grants, skipping empty entries, refusing what is not group=role", () => {
    expect(parseGroupGrants(" a = admin , , b=viewer: Search Team ")).toEqual([
      { group: "a", role: "admin" },
      { group: "b", role: "team", team: "Search Team", scope: "read" },
    ]);
    expect(() => parseGroupGrants("=admin")).toThrow('"=admin" is not group=role');
    expect(() => parseGroupGrants("member:Payments")).toThrow('"member:Payments" is not group=role');
    expect(() => parseGroupGrants(",")).toThrow("names no group");
  });
});
