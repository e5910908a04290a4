/**
 * A statement with its literal values replaced by `?`, as OpenTelemetry's
 * database conventions ask of `db.query.text`. MikroORM inlines every value
 * into the SQL it sends (no bind parameters), so without this a span would
 * carry channel URLs, titles, metadata and URL tokens. String literals
 * ('…' with '' inside, E'…'), and numbers that are not part of a name or a
 * `$1` placeholder, go; identifiers, keywords and placeholders stay.
 */
const LITERAL =
  /--[^\n]*|\/\*[\s\S]*?\*\/|\bE'(?:[^']|'')*'|'(?:[^']|'')*'|(?<![\w$."])-?\d+(?:\.\d+)?(?:e[+-]?\d+)?(?![\w"])/gi;

/**
 * Comments go whole (an apostrophe in one, "trigger's", would otherwise open
 * a string that swallows the statement up to the next quote).
 */
export function sanitizeSql(text: string): string {
  return text.replace(LITERAL, (match) => (match.startsWith("--") || match.startsWith("/*") ? "" : "?"));
}
