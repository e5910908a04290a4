import { errors } from "../errors.ts";
import { type ParsedJson, parseJsonKeepingNumbers } from "../validation/exact-numbers.ts";

/** `application/json` or any `+json` type, parameters (charset…) allowed, case-insensitive. */
export function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  const mediaType = header.split(";", 1)[0]?.trim().toLowerCase() ?? "";
  const slash = mediaType.indexOf("/");
  if (slash <= 0) return false;
  const type = mediaType.slice(0, slash);
  const subtype = mediaType.slice(slash + 1);
  if (type !== "application") return false;
  return subtype === "json" || (subtype.endsWith("+json") && subtype.length > "+json".length);
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * Step 6 (first half): 415 unless the Content-Type is JSON, 400 invalid_json
 * unless the bytes are UTF-8 JSON. Returns the parsed value (not yet checked)
 * and the numbers in it a double would not keep as sent, which the body's
 * parser refuses where they would be stored.
 */
export function parseJsonBody(contentType: string | undefined, raw: Buffer): ParsedJson {
  if (!isJsonContentType(contentType)) throw errors.unsupportedMediaType();
  try {
    return parseJsonKeepingNumbers(utf8.decode(raw));
  } catch {
    throw errors.invalidJson();
  }
}
