import { contractionsOf } from "@pulsegate/db/expand-contract";
import { describe, expect, it } from "vitest";
import { migrations } from "./index.ts";

/**
 * Migrations up to this number were written before the rule and audited against it
 * (docs/decisions.md, "Migrations: expand, then contract"); they stay as they shipped.
 */
const AUDITED_THROUGH = 3;

describe("auth migrations: expand, then contract", () => {
  it("take nothing away after the audited ones, but with a reviewed marker", async () => {
    const found = await contractionsOf(migrations);
    const after = found.filter((entry) => Number.parseInt(entry.migration, 10) > AUDITED_THROUGH);
    expect(after.map((entry) => `${entry.migration} ${entry.what}: ${entry.statement}`)).toEqual([]);
  });

  it("finds in the audited ones what docs/decisions.md lists", async () => {
    const found = await contractionsOf(migrations.filter((m) => Number.parseInt(m.name, 10) <= AUDITED_THROUGH));
    expect(found.map((entry) => `${entry.migration} ${entry.what}`)).toEqual([
      "0002-api-keys-and-audit-log builds an index on an existing table under a write lock",
      "0003-teams-updated-index builds an index on an existing table under a write lock",
    ]);
  });
});
