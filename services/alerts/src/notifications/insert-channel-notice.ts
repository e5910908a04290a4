import type { EntityManager } from "@pulsegate/db";
import { CHANNEL_DISABLED, type ChannelNoticeEvent, channelNoticePayload } from "./channel-notice.ts";

/** A channel notice into the outbox: it belongs to no alert. `?`: team id, event type, payload. */
export const INSERT_CHANNEL_NOTICE =
  "INSERT INTO alerts.outbox (team_id, alert_id, event_type, payload, created_at) VALUES (?, NULL, ?, ?::jsonb, now())";

export async function insertChannelNotice(em: EntityManager, channel: ChannelNoticeEvent["channel"]): Promise<void> {
  await em.execute(INSERT_CHANNEL_NOTICE, [channel.teamId, CHANNEL_DISABLED, channelNoticePayload(channel)]);
}
