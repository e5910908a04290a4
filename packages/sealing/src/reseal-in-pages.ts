export type ResealCounts = { resealed: number; alreadyCurrent: number };

const PAGE = 1_000;

export type ResealPages<Row extends { id: string }, Change> = {
  /** Rows after `after` (keyset over id), at most `limit`. */
  readPage: (after: string, limit: number) => Promise<Row[]>;
  /** The row's values sealed under the current KEK; null when they already are. */
  reseal: (row: Row) => Change | null;
  /** Writes a page's changes in one statement, skipping rows changed meanwhile; how many it wrote. */
  write: (changes: Change[]) => Promise<number>;
};

/**
 * Re-seals a table's sealed values under the current KEK, a page at a time, each page read and
 * written with one statement. A row changed meanwhile was sealed under the current KEK by that
 * change, and is left alone by `write`.
 */
export async function resealInPages<Row extends { id: string }, Change>(
  pages: ResealPages<Row, Change>,
): Promise<ResealCounts> {
  const counts: ResealCounts = { resealed: 0, alreadyCurrent: 0 };
  let after = "";
  for (;;) {
    const rows = await pages.readPage(after, PAGE);
    const changes: Change[] = [];
    for (const row of rows) {
      const change = pages.reseal(row);
      if (change === null) counts.alreadyCurrent++;
      else changes.push(change);
    }
    if (changes.length > 0) counts.resealed += await pages.write(changes);
    const last = rows.at(-1);
    if (!last || rows.length < PAGE) return counts;
    after = last.id;
  }
}
