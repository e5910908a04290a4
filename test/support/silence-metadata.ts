import { SILENCE_LIMITS } from "@pulsegate/contract/limits";

/**
 * Silence metadata whose JSON is exactly `bytes` bytes: `fixed` as given, then four more keys
 * filled in turn, so no one value passes its own bound (SILENCE_LIMITS.metadataValueMaxBytes).
 */
export function metadataOfBytes(bytes: number, fixed: Record<string, string> = {}): Record<string, string> {
  const fill = ["f1", "f2", "f3", "f4"];
  const metadata: Record<string, string> = { ...fixed, ...Object.fromEntries(fill.map((key) => [key, ""])) };
  let left = bytes - Buffer.byteLength(JSON.stringify(metadata));
  for (const key of fill) {
    const length = Math.max(0, Math.min(left, SILENCE_LIMITS.metadataValueMaxBytes - 2));
    metadata[key] = "v".repeat(length);
    left -= length;
  }
  if (left !== 0) throw new Error(`no silence metadata of ${bytes} bytes`);
  return metadata;
}
