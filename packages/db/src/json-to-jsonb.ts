/**
 * Statements that turn `json` columns into `jsonb`. A `json` column keeps
 * the text as sent, so it took escapes jsonb refuses — `\u0000` and unpaired
 * surrogates such as `\udfff` — and every later `->>` on such a row failed
 * (one team's trigger stalled every team's notifications). Rows that jsonb
 * accepts convert as they are; the few that hold such an escape keep it as
 * visible text (`\u0000` becomes the six characters `\`, `u`, `0`, `0`, `0`,
 * `0`) instead of being dropped: nothing is lost, and nothing unstorable stays.
 */
export function jsonColumnsToJsonb(
  schema: string,
  columns: readonly (readonly [table: string, column: string])[],
): string[] {
  const convert = `${schema}.pulsegate_json_to_jsonb`;
  return [
    // An escape preceded by an even run of backslashes is a real escape; an odd run makes it literal text.
    String.raw`CREATE FUNCTION ${convert}(value json) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $fn$
      BEGIN
        RETURN value::jsonb;
      EXCEPTION WHEN untranslatable_character OR invalid_text_representation OR invalid_parameter_value THEN
        RETURN regexp_replace(value::text, '(?<!\\)((?:\\\\)*)\\u(0000|d[89a-f][0-9a-f]{2})', '\1\\\\u\2', 'gi')::jsonb;
      END
    $fn$`,
    ...columns.map(
      ([table, column]) =>
        `ALTER TABLE ${schema}.${table} ALTER COLUMN ${column} TYPE jsonb USING ${convert}(${column})`,
    ),
    `DROP FUNCTION ${convert}(json)`,
  ];
}
