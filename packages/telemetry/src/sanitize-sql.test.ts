import { describe, expect, it } from "vitest";
import { sanitizeSql } from "./sanitize-sql.ts";

describe("sanitizeSql", () => {
  it("replaces string and number literals, keeping names, casts and placeholders", () => {
    expect(
      sanitizeSql(
        `insert into "alerts"."channels" ("id", "url", "max_attempts") values ('ch_1', 'https://hooks.slack.com/services/T0/B0/SECRET', 8) returning "t0"."id"`,
      ),
    ).toBe(`insert into "alerts"."channels" ("id", "url", "max_attempts") values (?, ?, ?) returning "t0"."id"`);
    expect(sanitizeSql("SELECT $1::jsonb, now() + interval '5 seconds' LIMIT 50")).toBe(
      "SELECT $1::jsonb, now() + interval ? LIMIT ?",
    );
  });

  it("handles doubled quotes and E'' strings whole", () => {
    expect(sanitizeSql(`update x set title = 'it''s SECRET', note = E'a\\\\b SECRET' where id = 'x'`)).toBe(
      "update x set title = ?, note = ? where id = ?",
    );
  });

  it("keeps digits inside identifiers such as sha256 or t1", () => {
    expect(sanitizeSql("select sha256(t1.col2) from t1 where x >= -1.5e3")).toBe(
      "select sha256(t1.col2) from t1 where x >= ?",
    );
  });

  it("drops comments, so that an apostrophe in one opens no string", () => {
    expect(
      sanitizeSql(`SELECT 'x' AS a, -- the trigger's interval, 5 minutes
  b /* don't */ FROM t WHERE c = 'SECRET'`),
    ).toBe(`SELECT ? AS a, 
  b  FROM t WHERE c = ?`);
  });
});
