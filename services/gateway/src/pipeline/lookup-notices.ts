/**
 * What a gateway tells every replica to forget of its look-up caches (team-changes.ts), so a
 * deleted webhook, monitor or team, or a changed monitor, is seen at once everywhere instead of
 * after a cache's life: a webhook by its URL token, a monitor by its ping URL and badge token, or
 * everything of a team.
 */
export type LookupNotice =
  | { kind: "webhook"; webhookUrl: string }
  | { kind: "monitor"; pingUrl: string; badgeToken: string }
  | { kind: "team"; teamId: string };

const isText = (value: unknown): value is string => typeof value === "string" && value !== "";

/** A notice as published (JSON); undefined for anything else on the channel. */
export function parseLookupNotice(text: string): LookupNotice | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const notice = value as Record<string, unknown> | null;
  if (notice?.kind === "webhook" && isText(notice.webhookUrl))
    return { kind: "webhook", webhookUrl: notice.webhookUrl };
  if (notice?.kind === "monitor" && isText(notice.pingUrl) && isText(notice.badgeToken)) {
    return { kind: "monitor", pingUrl: notice.pingUrl, badgeToken: notice.badgeToken };
  }
  if (notice?.kind === "team" && isText(notice.teamId)) return { kind: "team", teamId: notice.teamId };
  return undefined;
}
