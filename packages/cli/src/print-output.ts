import { PulsegateError } from "@pulsegate/sdk";
import type { CliIo } from "./cli-io.ts";

export type Column<T> = [header: string, value: (row: T) => unknown];

/** A value as one table cell or line: null as "-", objects as compact JSON. */
export function cell(value: unknown): string {
  if (value === null || value === undefined || value === "") return "-";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value).replace(/[\r\n\t]+/g, " ");
}

/** Rows under headers, columns padded to their widest cell. */
export function formatTable<T>(rows: readonly T[], columns: readonly Column<T>[]): string {
  if (rows.length === 0) return "(none)\n";
  const cells = [columns.map(([header]) => header), ...rows.map((row) => columns.map(([, value]) => cell(value(row))))];
  const widths = columns.map((_, index) => Math.max(...cells.map((line) => (line[index] ?? "").length)));
  return cells
    .map((line) =>
      line
        .map((text, index) => (index === line.length - 1 ? text : text.padEnd(widths[index] ?? 0)))
        .join("  ")
        .trimEnd(),
    )
    .join("\n")
    .concat("\n");
}

/** One resource as "field: value" lines, in the order the API sends them. */
export function formatFields(resource: Record<string, unknown>): string {
  const width = Math.max(...Object.keys(resource).map((key) => key.length));
  return Object.entries(resource)
    .map(([key, value]) => `${`${key}:`.padEnd(width + 1)} ${cell(value)}`)
    .join("\n")
    .concat("\n");
}

/** `--json`: the API's answer as it came; otherwise the human form. */
export function printResult(io: CliIo, json: boolean, data: unknown, human: () => string): void {
  io.stdout.write(json ? `${JSON.stringify(data, null, 2)}\n` : human());
}

/** A failure in words: the sentence, then the HTTP status, code, request id and field details. */
export function describeError(error: unknown): string {
  if (!(error instanceof PulsegateError)) return error instanceof Error ? error.message : String(error);
  const where = [error.status === 0 ? "no answer" : `HTTP ${error.status}`, error.code];
  if (error.requestId) where.push(`request ${error.requestId}`);
  if (error.attempts > 1) where.push(`after ${error.attempts} attempts`);
  const details = error.details.map((detail) => `\n  ${detail.field}: ${detail.message}`).join("");
  return `${error.message} (${where.join(", ")})${details}`;
}

/** A failure on stderr: a line for people, or the error as JSON with --json. */
export function printError(io: CliIo, json: boolean, error: unknown): void {
  if (!json) {
    io.stderr.write(`pulsegate: ${describeError(error)}\n`);
    return;
  }
  if (error instanceof PulsegateError) {
    const { status, code, message, requestId, details, retryAfterMs, attempts } = error;
    io.stderr.write(
      `${JSON.stringify({ error: message, code, status, requestId, details, retryAfterMs, attempts })}\n`,
    );
    return;
  }
  io.stderr.write(`${JSON.stringify({ error: describeError(error), code: "usage" })}\n`);
}
