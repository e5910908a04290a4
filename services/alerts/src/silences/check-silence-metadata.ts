import type { FieldProblem } from "@pulsegate/errors";
import { SILENCE_LIMITS } from "@pulsegate/limits";
import { jsonDepth } from "../filter-rules/json.ts";

const FIELD = "matchers.metadata";
const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? "", "utf8");

/**
 * The bounds of a silence's metadata matchers (SILENCE_LIMITS), every trigger batch of the team
 * matching them: depth first (an iterative walk that stops at the bound), so nothing deeper is
 * ever written out; then its size as JSON, its number of keys, and each key and value.
 */
export function checkSilenceMetadata(metadata: Record<string, unknown>): FieldProblem[] {
  const { metadataMaxDepth, metadataMaxBytes, metadataMaxKeys, metadataKeyMaxLength, metadataValueMaxBytes } =
    SILENCE_LIMITS;
  if (jsonDepth(metadata, metadataMaxDepth) > metadataMaxDepth) {
    return [{ field: FIELD, message: `${FIELD} must be nested at most ${metadataMaxDepth} levels deep.` }];
  }
  const problems: FieldProblem[] = [];
  if (bytesOf(metadata) > metadataMaxBytes) {
    problems.push({ field: FIELD, message: `${FIELD} must be at most ${metadataMaxBytes} bytes as JSON.` });
  }
  const entries = Object.entries(metadata);
  if (entries.length > metadataMaxKeys) {
    problems.push({ field: FIELD, message: `${FIELD} must have at most ${metadataMaxKeys} keys.` });
  }
  if (entries.some(([key]) => [...key].length > metadataKeyMaxLength)) {
    problems.push({ field: FIELD, message: `${FIELD} keys must be at most ${metadataKeyMaxLength} characters.` });
    return problems;
  }
  for (const [key, value] of entries) {
    if (bytesOf(value) > metadataValueMaxBytes) {
      const field = `${FIELD}.${key}`;
      problems.push({ field, message: `${field} must be at most ${metadataValueMaxBytes} bytes as JSON.` });
    }
  }
  return problems;
}
