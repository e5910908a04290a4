import { defineEntity, type InferEntity, p } from "@pulsegate/db";
import type { NotificationRoute } from "./route-event.ts";

/** A team's notification policy: routes from severities to channels. No row: every channel. */
export const NotificationPolicySchema = defineEntity({
  name: "NotificationPolicy",
  tableName: "notification_policies",
  properties: {
    teamId: p.string().primary(),
    routes: p.json<NotificationRoute[]>(),
    updatedAt: p.datetime(),
  },
});

export type NotificationPolicy = InferEntity<typeof NotificationPolicySchema>;
