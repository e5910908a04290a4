import { describe, expect, it } from "vitest";
import { resealInPages } from "./reseal-in-pages.ts";

describe("resealInPages", () => {
  it("walks every page by id, reseals only old rows, and counts what the writes report", async () => {
    const rows = Array.from({ length: 2_500 }, (_, index) => ({
      id: `row_${String(index).padStart(5, "0")}`,
      old: index % 2 === 0,
    }));
    const afters: string[] = [];
    const written: string[] = [];
    const counts = await resealInPages({
      readPage: async (after, limit) => {
        afters.push(after);
        return rows.filter((row) => row.id > after).slice(0, limit);
      },
      reseal: (row) => (row.old ? row.id : null),
      // One row of each page changed meanwhile: the write skips it.
      write: async (changes) => {
        written.push(...changes);
        return changes.length - 1;
      },
    });
    expect(afters).toEqual(["", "row_00999", "row_01999"]);
    expect(written).toHaveLength(1_250);
    expect(counts).toEqual({ resealed: 1_250 - 3, alreadyCurrent: 1_250 });
  });

  it("stops after an empty first page without writing", async () => {
    let writes = 0;
    const counts = await resealInPages({
      readPage: async () => [],
      reseal: () => "change",
      write: async () => ++writes,
    });
    expect(counts).toEqual({ resealed: 0, alreadyCurrent: 0 });
    expect(writes).toBe(0);
  });
});
