import { contractionsOf } from "@pulsegate/db/expand-contract";
import { describe, expect, it } from "vitest";
import { migrations } from "./index.ts";

/**
 * Migrations up to this number were written before the rule and audited against it
 * (docs/decisions.md, "Migrations: expand, then contract"); they stay as they shipped.
 */
const AUDITED_THROUGH = 17;

describe("alerts migrations: expand, then contract", () => {
  it("take nothing away after the audited ones, but with a reviewed marker", async () => {
    const found = await contractionsOf(migrations);
    const after = found.filter((entry) => Number.parseInt(entry.migration, 10) > AUDITED_THROUGH);
    expect(after.map((entry) => `${entry.migration} ${entry.what}: ${entry.statement}`)).toEqual([]);
  });

  it("finds in the audited ones what docs/decisions.md lists", async () => {
    const found = await contractionsOf(migrations.filter((m) => Number.parseInt(m.name, 10) <= AUDITED_THROUGH));
    expect(found.map((entry) => `${entry.migration} ${entry.what}`)).toEqual([
      "0002-notifications builds an index on an existing table under a write lock",
      "0003-jsonb-and-set-aside changes a column's type",
      "0003-jsonb-and-set-aside changes a column's type",
      "0003-jsonb-and-set-aside changes a column's type",
      "0004-open-key-index-collation adds a unique index to an existing table",
      "0004-open-key-index-collation builds an index on an existing table under a write lock",
      "0004-open-key-index-collation drops an index or constraint",
      "0004-open-key-index-collation renames",
      "0005-team-list-index builds an index on an existing table under a write lock",
      "0005-team-list-index drops an index or constraint",
      "0005-team-list-index renames",
      "0006-seal-channel-credentials drops a column",
      "0006-seal-channel-credentials sets NOT NULL",
      "0006-seal-channel-credentials drops an index or constraint",
      "0006-seal-channel-credentials adds a constraint",
      "0008-reminders builds an index on an existing table under a write lock",
      "0008-reminders drops an index or constraint",
      "0008-reminders adds a constraint",
      "0011-incident-tool-channels drops an index or constraint",
      "0011-incident-tool-channels adds a constraint",
      "0012-email-channels drops an index or constraint",
      "0012-email-channels adds a constraint",
      "0014-silence-matcher-bytes adds a column that rewrites the table under an exclusive lock",
    ]);
  });
});
