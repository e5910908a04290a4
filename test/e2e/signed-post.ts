import { type JsonResponse, sign } from "../support/client.ts";

/**
 * A signed POST (or GET) to a public path: the body as JSON (a string is sent
 * byte for byte), signed with `secret` over the exact bytes, or over the empty
 * string without a body. For the endpoints the shared Client does not know
 * (resolve by key, start signals, dry runs).
 */
export async function signedRequest(
  baseUrl: string,
  path: string,
  secret: string,
  body?: unknown,
  options: { method?: "GET" | "POST"; signature?: string | null; contentType?: string } = {},
): Promise<JsonResponse> {
  const raw = body === undefined ? "" : typeof body === "string" ? body : JSON.stringify(body);
  const headers: Record<string, string> = {};
  if (raw !== "") headers["content-type"] = options.contentType ?? "application/json";
  const signature = options.signature === undefined ? sign(secret, raw) : options.signature;
  if (signature !== null) headers["x-webhook-signature"] = signature;
  const method = options.method ?? "POST";
  const response = await fetch(`${baseUrl}${path}`, { method, headers, ...(raw === "" ? {} : { body: raw }) });
  const text = await response.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    parsed = { raw: text };
  }
  return { status: response.status, headers: response.headers, body: parsed };
}
