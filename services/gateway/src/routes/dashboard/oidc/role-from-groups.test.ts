import { describe, expect, it } from "vitest";
import { parseGroupGrants } from "./oidc-settings.ts";
import { roleFromGroups } from "./role-from-groups.ts";

const grants = parseGroupGrants("payments-ro=viewer:Payments,platform=admin,payments=member:Payments,gone=member:Gone");
const teams = new Map([["Payments", "team_payments"]]);
const findTeam = async (name: string) => teams.get(name);

describe("roleFromGroups", () => {
  it("makes an admin of anyone in an admin group, whatever else they are in", async () => {
    expect(await roleFromGroups(grants, ["payments-ro", "platform"], findTeam)).toEqual({ kind: "admin" });
  });

  it("otherwise takes the first team grant in configured order", async () => {
    expect(await roleFromGroups(grants, ["payments", "payments-ro"], findTeam)).toEqual({
      kind: "team",
      teamId: "team_payments",
      scope: "read",
    });
    expect(await roleFromGroups(grants, ["payments"], findTeam)).toEqual({
      kind: "team",
      teamId: "team_payments",
      scope: "write",
    });
  });

  it("skips a grant whose team does not exist, and gives nothing without a matching group", async () => {
    expect(await roleFromGroups(grants, ["gone"], findTeam)).toBe(undefined);
    expect(await roleFromGroups(grants, ["marketing"], findTeam)).toBe(undefined);
    expect(await roleFromGroups(grants, [], findTeam)).toBe(undefined);
  });
});
