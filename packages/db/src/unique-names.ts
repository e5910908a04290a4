/**
 * The expand step that makes names unique where rows already exist (docs/decisions.md, "Names"):
 * the table is locked against writes for the rest of the migration's transaction, every name
 * held by more than one live row is kept by the oldest (created_at, then id) and the others are
 * renamed `<name, shortened to fit> (<id>)`, and the unique index is built. A row written
 * meanwhile by the previous release cannot slip a duplicate in between the rename and the index,
 * so the migration never fails on the data it meets.
 */
export type UniqueNames = {
  /** `schema.table`; its rows have `id`, `name` and `created_at`. */
  table: string;
  /** The index's name, without the schema. */
  index: string;
  /** The columns names are unique within (`["team_id"]`), or none for the whole table. */
  within: string[];
  /** The rows that count (`deleted_at IS NULL`); none: every row. */
  live?: string;
  /** The names' maximum length in characters. */
  maxLength: number;
};

/**
 * Why no running code needs duplicate names: the marker every unique index on an existing table
 * carries (docs/decisions.md, "Migrations: expand, then contract").
 */
const REVIEWED = `-- reviewed contract: unique-names — no release relies on two live rows sharing a name; the
-- previous release's create or rename of a duplicate, while it still runs, is refused by this
-- index (an error) where this release answers 409 name_taken; duplicates already stored were
-- renamed just above, in this transaction, under a lock that keeps new ones out`;

export function uniqueNamesSql(spec: UniqueNames): string[] {
  const { table, index, within, live, maxLength } = spec;
  const where = live ? ` WHERE ${live}` : "";
  const partition = [...within, "name"].join(", ");
  return [
    `LOCK TABLE ${table} IN SHARE ROW EXCLUSIVE MODE`,
    `UPDATE ${table} t
        SET name = left(t.name, ${maxLength} - length(t.id) - 3) || ' (' || t.id || ')'
       FROM (SELECT id, row_number() OVER (PARTITION BY ${partition} ORDER BY created_at, id) AS n
               FROM ${table}${where}) d
      WHERE t.id = d.id AND d.n > 1`,
    `${REVIEWED}
    CREATE UNIQUE INDEX IF NOT EXISTS ${index} ON ${table} (${[...within, "name"].join(", ")})${where}`,
  ];
}
