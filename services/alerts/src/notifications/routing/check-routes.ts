import type { FieldProblem } from "@pulsegate/contract/errors";
import { CHANNEL_LIMITS } from "@pulsegate/contract/limits";
import { isSeverity, SEVERITIES, type Severity } from "@pulsegate/contract/vocabulary";
import type { NotificationRoute } from "./route-event.ts";

export type RouteInput = { severities: string[]; channelIds: string[] };

/**
 * Checks a policy's routes: each lists at least one known severity and at
 * least one of the team's channels, without repeats.
 */
export function checkRoutes(
  routes: RouteInput[],
  teamChannelIds: ReadonlySet<string>,
): { routes: NotificationRoute[] } | { errors: FieldProblem[] } {
  const errors: FieldProblem[] = [];
  if (routes.length > CHANNEL_LIMITS.maxPolicyRoutes) {
    return { errors: [{ field: "routes", message: `A policy has at most ${CHANNEL_LIMITS.maxPolicyRoutes} routes.` }] };
  }
  const checked = routes.map((route, index): NotificationRoute => {
    const at = `routes[${index}]`;
    const severities: Severity[] = [];
    if (route.severities.length === 0)
      errors.push({ field: `${at}.severities`, message: "severities must not be empty." });
    for (const severity of route.severities) {
      if (!isSeverity(severity)) {
        errors.push({ field: `${at}.severities`, message: `severities must be among ${SEVERITIES.join(", ")}.` });
      } else if (!severities.includes(severity)) severities.push(severity);
    }
    const channelIds: string[] = [];
    if (route.channelIds.length === 0)
      errors.push({ field: `${at}.channelIds`, message: "channelIds must not be empty." });
    if (route.channelIds.length > CHANNEL_LIMITS.maxChannelsPerRoute) {
      errors.push({
        field: `${at}.channelIds`,
        message: `A route lists at most ${CHANNEL_LIMITS.maxChannelsPerRoute} channels.`,
      });
    }
    route.channelIds.forEach((id, position) => {
      if (!teamChannelIds.has(id)) {
        errors.push({ field: `${at}.channelIds[${position}]`, message: "No channel of this team has that id." });
      } else if (!channelIds.includes(id)) channelIds.push(id);
    });
    return { severities, channelIds };
  });
  return errors.length > 0 ? { errors } : { routes: checked };
}
