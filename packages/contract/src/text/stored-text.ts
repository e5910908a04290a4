import { findUnstorableText, type TextProblem } from "./unstorable-text.ts";

/**
 * The services' backstop for the text of one batch item (a trigger, a ping) before it is stored;
 * the gateway refuses all of this first, and the backstop is per item so one bad item never fails
 * a batch that mixes teams. Metadata, as JSON text, must be a JSON object; no string (or key) may
 * be unstorable (U+0000, unpaired surrogates). The metadata parsed (undefined without any), or the
 * problems, named by field.
 */
export function checkStoredText(
  texts: Record<string, string | undefined>,
  metadataJson: string | null,
): { metadata: unknown } | { problems: TextProblem[] } {
  let metadata: unknown;
  if (metadataJson !== null) {
    try {
      metadata = JSON.parse(metadataJson);
    } catch {
      metadata = undefined;
    }
    if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) {
      return { problems: [{ field: "metadata", message: "metadata must be a JSON object." }] };
    }
  }
  const problems = findUnstorableText({ ...texts, metadata }, "");
  return problems.length > 0 ? { problems } : { metadata };
}
