import { describe, expect, it } from "vitest";
import type { UserActor } from "./actor.ts";
import { createUserPasses } from "./user-passes.ts";

const alice: UserActor = {
  kind: "user",
  subject: "alice",
  name: "Alice",
  email: "alice@example.com",
  role: { kind: "team", teamId: "team_1", scope: "read" },
};

describe("user passes", () => {
  it("name the person to the process that issued them, and to no other", () => {
    const passes = createUserPasses();
    const pass = passes.issue(alice);
    expect(passes.isPass(pass)).toBe(true);
    expect(passes.open(pass)).toEqual(alice);
    expect(createUserPasses().open(pass)).toBe(undefined);
    expect(passes.isPass("pgk_a-team-key")).toBe(false);
  });

  it("refuse an altered or expired pass", () => {
    const passes = createUserPasses();
    const pass = passes.issue(alice);
    const [body = "", mac = ""] = pass.slice("pgu.".length).split(".");
    const admin = Buffer.from(
      JSON.stringify({ user: { ...alice, role: { kind: "admin" } }, until: Date.now() + 60_000 }),
    ).toString("base64url");
    expect(passes.open(`pgu.${admin}.${mac}`)).toBe(undefined);
    expect(passes.open(`pgu.${body}.${mac.slice(1)}`)).toBe(undefined);
    const expired = createUserPasses(-1);
    expect(expired.open(expired.issue(alice))).toBe(undefined);
  });
});
