import { describe, expect, it } from "vitest";
import { unboundedScans } from "./explain-trigger-plans.ts";

describe("unboundedScans", () => {
  it("accepts index look-ups with a condition and scans of the batch's own arrays", () => {
    const plan = [
      "Nested Loop Left Join  (cost=0.40..165.81 rows=10 width=143)",
      "  ->  Function Scan on k  (cost=0.01..0.11 rows=10 width=84)",
      "  ->  Index Scan using alerts_one_open_per_key on alerts a  (cost=0.40..12.41 rows=1 width=39)",
      "        Index Cond: (((team_id)::text = k.team_id) AND ((group_key)::text = k.group_key))",
      "  ->  Tid Scan on alerts a  (cost=0.00..4.02 rows=1 width=57)",
    ].join("\n");
    expect(unboundedScans(new Map([["classify", plan]]))).toEqual([]);
  });

  it("flags sequential scans, index reads without a condition, and the team's alert list", () => {
    const plan = [
      "Hash Join  (cost=4.03..4.19 rows=1 width=135)",
      "  ->  Seq Scan on alerts a  (cost=0.00..4.01 rows=1 width=78)",
      "  ->  Index Scan using alerts_one_open_per_key on alerts a_1  (cost=0.25..8.26 rows=1 width=83)",
      "        Filter: (status <> 'resolved'::text)",
      "  ->  Index Scan using alerts_team_created_idx on alerts a_2  (cost=0.27..8.29 rows=1 width=39)",
      "        Index Cond: (team_id = k.team_id)",
    ].join("\n");
    expect(unboundedScans(new Map([["fold", plan]]))).toEqual([
      "fold: ->  Seq Scan on alerts a  (cost=0.00..4.01 rows=1 width=78)",
      "fold: ->  Index Scan using alerts_one_open_per_key on alerts a_1  (cost=0.25..8.26 rows=1 width=83) (no Index Cond)",
      "fold: ->  Index Scan using alerts_team_created_idx on alerts a_2  (cost=0.27..8.29 rows=1 width=39)",
    ]);
  });
});
