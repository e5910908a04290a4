import { describe, expect, it } from "vitest";
import { contractions, migrationStatements } from "./expand-contract.ts";
import { Migration } from "./index.ts";

const whats = (...statements: string[]) => contractions(statements).map((found) => found.what);

describe("contractions", () => {
  it("lets an expanding migration through: new tables and their indexes, nullable or defaulted columns", () => {
    expect(
      whats(
        "CREATE TABLE alerts.things (id text PRIMARY KEY, n integer NOT NULL CHECK (n > 0))",
        "CREATE UNIQUE INDEX things_n ON alerts.things (n)",
        "ALTER TABLE alerts.alerts ADD COLUMN note text NULL, ADD COLUMN tries integer NOT NULL DEFAULT 0",
        "ALTER TABLE alerts.webhooks ADD COLUMN scheme text NOT NULL DEFAULT 'a' CHECK (scheme IN ('a', 'b'))",
        "CREATE INDEX IF NOT EXISTS alerts_note_idx ON alerts.alerts (note)",
        "ALTER TABLE alerts.outbox ALTER COLUMN alert_id DROP NOT NULL",
        "UPDATE alerts.channels SET scheme = 'a' WHERE kind = 'webhook'",
      ),
    ).toEqual([]);
  });

  it("names what takes away or narrows what running code may use", () => {
    expect(whats("DROP TABLE alerts.things")).toEqual(["drops a table"]);
    expect(whats("ALTER TABLE alerts.channels DROP COLUMN url")).toEqual(["drops a column"]);
    expect(whats("ALTER TABLE alerts.alerts RENAME COLUMN title TO summary")).toEqual(["renames"]);
    expect(whats("ALTER TABLE alerts.channels ALTER COLUMN masked_url SET NOT NULL")).toEqual(["sets NOT NULL"]);
    expect(whats("ALTER TABLE alerts.alerts ALTER COLUMN tries DROP DEFAULT")).toEqual(["drops a column's default"]);
    expect(whats("ALTER TABLE alerts.alerts ALTER COLUMN metadata TYPE jsonb")).toEqual(["changes a column's type"]);
    expect(whats("ALTER TABLE alerts.alerts ALTER metadata SET DATA TYPE jsonb")).toEqual(["changes a column's type"]);
    expect(whats("ALTER TABLE alerts.alerts ADD COLUMN a text NULL, ADD COLUMN b text NOT NULL")).toEqual([
      "adds a NOT NULL column without a default",
    ]);
    expect(whats("ALTER TABLE alerts.outbox DROP CONSTRAINT outbox_event_type_check")).toEqual([
      "drops an index or constraint",
    ]);
    expect(whats("ALTER TABLE alerts.outbox ADD CONSTRAINT c CHECK (n > 0) NOT VALID")).toEqual(["adds a constraint"]);
    expect(whats("CREATE UNIQUE INDEX IF NOT EXISTS u ON alerts.alerts (title)")).toEqual([
      "adds a unique index to an existing table",
    ]);
  });

  it("names what locks a table the running code writes", () => {
    expect(whats("CREATE INDEX alerts_title ON alerts.alerts (title)")).toEqual([
      "builds an index on an existing table under a write lock",
    ]);
    expect(
      whats("ALTER TABLE monitors.monitors ADD COLUMN token text NOT NULL DEFAULT gen_random_uuid()::text"),
    ).toEqual(["adds a column that rewrites the table under an exclusive lock"]);
    expect(whats("ALTER TABLE alerts.silences ADD COLUMN n integer GENERATED ALWAYS AS (length(name)) STORED")).toEqual(
      ["adds a column that rewrites the table under an exclusive lock"],
    );
  });

  it("takes a statement that carries a reviewed marker naming the release and the reason", () => {
    const marked = `-- reviewed contract: 3f2a9c1 — no code reads channels.url since the release that sealed it
      ALTER TABLE alerts.channels DROP COLUMN url`;
    expect(whats(marked)).toEqual([]);
    // Without a reason, or elsewhere than in the statement, it is no marker.
    expect(whats("-- reviewed contract: 3f2a9c1\nALTER TABLE alerts.channels DROP COLUMN url")).toEqual([
      "drops a column",
    ]);
    expect(whats("-- reviewed contract: 3f2a9c1 — gone", "ALTER TABLE alerts.channels DROP COLUMN url")).toEqual([
      "drops a column",
    ]);
  });

  it("reads SQL, not comments", () => {
    expect(whats("-- we never DROP COLUMN here\nALTER TABLE alerts.alerts ADD COLUMN note text")).toEqual([]);
  });
});

describe("migrationStatements", () => {
  it("records what a migration sends, through addSql and execute", async () => {
    class Example extends Migration {
      override async up(): Promise<void> {
        this.addSql("ALTER TABLE alerts.alerts ADD COLUMN note text");
        const rows = await this.execute("SELECT id FROM alerts.alerts");
        if (rows.length === 0) await this.execute("ALTER TABLE alerts.alerts DROP COLUMN note");
      }
    }
    expect(await migrationStatements(Example)).toEqual([
      "ALTER TABLE alerts.alerts ADD COLUMN note text",
      "SELECT id FROM alerts.alerts",
      "ALTER TABLE alerts.alerts DROP COLUMN note",
    ]);
  });
});
