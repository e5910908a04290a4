/**
 * The address of a public endpoint from what a user has at hand: the path token
 * (`webhookUrl`, `pingUrl` in admin answers) joined to the base URL, or a full
 * http(s) URL (`triggerUrl`, `pingEndpoint`) used as it is.
 */
export function endpointUrl(
  tokenOrUrl: string,
  kind: "trigger" | "resolve" | "ping",
  baseUrl: string | undefined,
): string {
  if (/^https?:\/\//i.test(tokenOrUrl)) return new URL(tokenOrUrl).toString();
  if (tokenOrUrl === "" || /[/?#\s]/.test(tokenOrUrl)) {
    throw new TypeError(`"${tokenOrUrl}" is neither a ${kind} token nor an http(s) URL.`);
  }
  if (!baseUrl) {
    throw new TypeError(`A base URL is needed to reach the ${kind} token "${tokenOrUrl}" (or pass the full URL).`);
  }
  const path = kind === "ping" ? "api/ping" : `api/alerts/${kind}`;
  return `${joinBase(baseUrl)}/${path}/${encodeURIComponent(tokenOrUrl)}`;
}

/** The base URL without a trailing slash, checked to be http(s). */
export function joinBase(baseUrl: string): string {
  const url = new URL(baseUrl);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError(`The base URL must be http(s), not ${url.protocol}`);
  }
  return url.toString().replace(/\/+$/, "");
}
