import type { Severity } from "@pulsegate/contract/vocabulary";

export type NotificationRoute = { severities: Severity[]; channelIds: string[] };

/**
 * The channels an event of an alert with `severity` goes to, in the order
 * of `channels` (the team's enabled channels). Without a policy, every
 * channel; with one, the channels of every route that lists the severity —
 * a severity no route lists notifies nobody.
 */
export function routeEvent(
  severity: string,
  channels: readonly { id: string }[],
  routes: readonly NotificationRoute[] | null,
): string[] {
  if (routes === null) return channels.map((channel) => channel.id);
  const wanted = new Set(
    routes.filter((route) => (route.severities as string[]).includes(severity)).flatMap((route) => route.channelIds),
  );
  return channels.filter((channel) => wanted.has(channel.id)).map((channel) => channel.id);
}
