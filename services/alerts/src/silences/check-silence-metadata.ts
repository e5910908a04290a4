import type { FieldProblem } from "@pulsegate/contract/errors";
import { jsonBoundsProblem, SILENCE_LIMITS } from "@pulsegate/contract/limits";

const FIELD = "matchers.metadata";
const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? "", "utf8");

/**
 * The bounds of a silence's metadata matchers (SILENCE_LIMITS), every trigger batch of the team
 * matching them: depth first (jsonBoundsProblem, which stops at the bound), so nothing deeper is
 * ever written out; then its size as JSON, its number of keys, and each key and value.
 */
export function checkSilenceMetadata(metadata: Record<string, unknown>): FieldProblem[] {
  const { metadataMaxDepth, metadataMaxBytes, metadataMaxKeys, metadataKeyMaxLength, metadataValueMaxBytes } =
    SILENCE_LIMITS;
  // Too deep: nothing below may walk it.
  const tooDeep = jsonBoundsProblem(metadata, { maxDepth: metadataMaxDepth });
  if (tooDeep !== null) return [{ field: FIELD, message: `${FIELD} ${tooDeep}.` }];
  const tooBig = jsonBoundsProblem(metadata, { maxDepth: metadataMaxDepth, maxBytes: metadataMaxBytes });
  const problems: FieldProblem[] = tooBig === null ? [] : [{ field: FIELD, message: `${FIELD} ${tooBig}.` }];
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
