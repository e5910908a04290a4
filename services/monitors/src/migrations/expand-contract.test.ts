import { contractionsOf } from "@pulsegate/db/expand-contract";
import { describe, expect, it } from "vitest";
import { migrations } from "./index.ts";

/**
 * Migrations up to this number were written before the rule and audited against it
 * (docs/decisions.md, "Migrations: expand, then contract"); they stay as they shipped.
 */
const AUDITED_THROUGH = 8;

describe("monitors migrations: expand, then contract", () => {
  it("take nothing away after the audited ones, but with a reviewed marker", async () => {
    const found = await contractionsOf(migrations);
    const after = found.filter((entry) => Number.parseInt(entry.migration, 10) > AUDITED_THROUGH);
    expect(after.map((entry) => `${entry.migration} ${entry.what}: ${entry.statement}`)).toEqual([]);
  });

  it("finds in the audited ones what docs/decisions.md lists", async () => {
    const found = await contractionsOf(migrations.filter((m) => Number.parseInt(m.name, 10) <= AUDITED_THROUGH));
    expect(found.map((entry) => `${entry.migration} ${entry.what}`)).toEqual([
      "0003-jsonb changes a column's type",
      "0003-jsonb changes a column's type",
      "0004-schedules-runs-badges adds a column that rewrites the table under an exclusive lock",
      "0004-schedules-runs-badges adds a unique index to an existing table",
      "0004-schedules-runs-badges builds an index on an existing table under a write lock",
      "0004-schedules-runs-badges drops an index or constraint",
      "0004-schedules-runs-badges adds a constraint",
      "0004-schedules-runs-badges drops an index or constraint",
      "0004-schedules-runs-badges adds a constraint",
    ]);
  });
});
