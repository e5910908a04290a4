import type { Migration } from "@mikro-orm/migrations";

/**
 * The migration rule's check (docs/decisions.md, "Migrations: expand, then contract"): the
 * statements of a migration that take away or narrow something the previous release's code may
 * still use while it runs beside this one — or lock a table it writes — each allowed only with a
 * reviewed marker in the statement itself:
 *
 *   -- reviewed contract: <release> — <why no running code needs what it takes away>
 *
 * where <release> is the first release (commit, tag) whose code no longer needs it, and code of
 * that release is what runs when this migration is applied. Read from the SQL the migration really
 * sends (its `up()` run against a recorder), so SQL written by helpers counts too.
 */

type Rule = { what: string; test: (sql: string, created: ReadonlySet<string>) => boolean };

const ADD_COLUMN = /\bADD\s+COLUMN\s+(?:IF\s+NOT\s+EXISTS\s+)?/gi;

/** Each `ADD COLUMN` clause's text, up to its comma (not one inside parentheses) or the end. */
function addedColumns(sql: string): string[] {
  const clauses: string[] = [];
  for (const match of sql.matchAll(ADD_COLUMN)) {
    let depth = 0;
    let end = match.index + match[0].length;
    for (; end < sql.length; end++) {
      const char = sql[end];
      if (char === "(") depth++;
      else if (char === ")") depth--;
      else if (char === "," && depth === 0) break;
    }
    clauses.push(sql.slice(match.index + match[0].length, end));
  }
  return clauses;
}

const INDEX =
  /\bCREATE\s+(UNIQUE\s+)?INDEX\s+(CONCURRENTLY\s+)?(IF\s+NOT\s+EXISTS\s+)?(?:\w+\s+)?ON\s+(?:ONLY\s+)?([\w.]+)/gi;

/** Indexes on tables the migration did not create: [unique, concurrently or if-not-exists]. */
function indexesOnExistingTables(
  sql: string,
  created: ReadonlySet<string>,
): { unique: boolean; deferrable: boolean }[] {
  return [...sql.matchAll(INDEX)]
    .filter((match) => !created.has((match[4] ?? "").toLowerCase()))
    .map((match) => ({ unique: Boolean(match[1]), deferrable: Boolean(match[2] || match[3]) }));
}

const RULES: Rule[] = [
  { what: "drops a table", test: (sql) => /\bDROP\s+TABLE\b/i.test(sql) },
  { what: "drops a column", test: (sql) => /\bDROP\s+COLUMN\b/i.test(sql) },
  { what: "renames", test: (sql) => /\bRENAME\b/i.test(sql) },
  { what: "sets NOT NULL", test: (sql) => /\bSET\s+NOT\s+NULL\b/i.test(sql) },
  { what: "drops a column's default", test: (sql) => /\bDROP\s+DEFAULT\b/i.test(sql) },
  {
    what: "changes a column's type",
    test: (sql) => /\bALTER\s+(?:COLUMN\s+)?"?\w+"?\s+(?:SET\s+DATA\s+)?TYPE\b/i.test(sql),
  },
  {
    what: "adds a NOT NULL column without a default",
    test: (sql) =>
      addedColumns(sql).some((clause) => /\bNOT\s+NULL\b/i.test(clause) && !/\b(?:DEFAULT|GENERATED)\b/i.test(clause)),
  },
  {
    what: "adds a column that rewrites the table under an exclusive lock",
    test: (sql) =>
      addedColumns(sql).some((clause) =>
        /\bGENERATED\s+ALWAYS\s+AS\b[\s\S]*\bSTORED\b|\b(?:small|big)?serial\b|\bDEFAULT\b[\s\S]*\b(?:gen_random_uuid|random|clock_timestamp|timeofday|uuid_generate_v\d|nextval)\s*\(/i.test(
          clause,
        ),
      ),
  },
  { what: "drops an index or constraint", test: (sql) => /\bDROP\s+(?:INDEX|CONSTRAINT)\b/i.test(sql) },
  {
    what: "adds a constraint",
    test: (sql) => /\bADD\s+(?:CONSTRAINT|PRIMARY\s+KEY|UNIQUE|CHECK|FOREIGN\s+KEY|EXCLUDE)\b/i.test(sql),
  },
  {
    what: "adds a unique index to an existing table",
    test: (sql, created) => indexesOnExistingTables(sql, created).some((index) => index.unique),
  },
  {
    what: "builds an index on an existing table under a write lock",
    test: (sql, created) => indexesOnExistingTables(sql, created).some((index) => !index.deferrable),
  },
];

const MARKER = /--\s*reviewed contract:\s*(\S+)\s+[—–-]+\s*\S/i;

/** `sql` without its comments (`--` to the end of a line, and `/* … *\/`); quoted text is kept. */
function withoutComments(sql: string): string {
  return sql.replace(/\/\*[\s\S]*?\*\//g, " ").replace(/--[^\n]*/g, " ");
}

/** What each statement does that the rule allows only with a marker, for statements that carry none. */
export function contractions(statements: readonly string[]): { statement: string; what: string }[] {
  const created = new Set<string>();
  for (const sql of statements) {
    for (const match of withoutComments(sql).matchAll(/\bCREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?([\w.]+)/gi)) {
      created.add((match[1] ?? "").toLowerCase());
    }
  }
  return statements.flatMap((sql) => {
    if (MARKER.test(sql)) return [];
    const code = withoutComments(sql);
    return RULES.filter((rule) => rule.test(code, created)).map((rule) => ({
      statement: code.replace(/\s+/g, " ").trim().slice(0, 160),
      what: rule.what,
    }));
  });
}

type MigrationClass = new (...args: never[]) => Migration;

/**
 * The SQL a migration sends: its `up()` run with a recorder in place of the database (`execute`
 * answers no rows, so a data migration takes its path for an empty table).
 */
export async function migrationStatements(migration: MigrationClass): Promise<string[]> {
  const Construct = migration as unknown as new (driver: unknown, config: unknown) => Migration;
  const instance = new Construct({}, {});
  const executed: string[] = [];
  instance.execute = async (sql) => {
    executed.push(textOf(sql));
    return [];
  };
  await instance.up();
  return [...instance.getQueries().map(textOf), ...executed];
}

function textOf(query: unknown): string {
  if (typeof query !== "string") throw new Error("a migration's statements must be SQL text to be checked");
  return query;
}

export type Contraction = { migration: string; what: string; statement: string };

/** The unmarked contractions of every migration in the list, in order. */
export async function contractionsOf(
  migrations: readonly { name: string; class: MigrationClass }[],
): Promise<Contraction[]> {
  const found: Contraction[] = [];
  for (const migration of migrations) {
    for (const { statement, what } of contractions(await migrationStatements(migration.class))) {
      found.push({ migration: migration.name, what, statement });
    }
  }
  return found;
}
