/**
 * A channel URL as the API shows it: scheme, host and the last four
 * characters, e.g. "https://hooks.slack.com/…XXXX". The path of a Slack
 * incoming-webhook URL is its credential, so the rest is never shown.
 */
export function maskUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "…";
  }
  const rest = `${url.pathname}${url.search}${url.hash}`;
  // A short path would be shown almost whole; show none of it then.
  const tail = rest.length >= 12 ? rest.slice(-4) : "";
  return `${url.protocol}//${url.host}/…${tail}`;
}
