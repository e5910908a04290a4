import type { channelJson, deliveryJson, policyJson } from "../admin/channel-json.ts";
import type { monitorJson, pingJson } from "../admin/monitor-json.ts";
import type { alertJson, occurrenceJson, teamJson, webhookJson } from "../admin/to-json.ts";

/** The admin API's JSON shapes, taken from the mappers that write them. */
export type Team = ReturnType<typeof teamJson>;
export type Webhook = ReturnType<typeof webhookJson>;
export type Alert = ReturnType<typeof alertJson>;
export type Occurrence = ReturnType<typeof occurrenceJson>;
export type Monitor = ReturnType<typeof monitorJson>;
export type Ping = ReturnType<typeof pingJson>;
export type Channel = ReturnType<typeof channelJson>;
export type Delivery = ReturnType<typeof deliveryJson>;
export type Policy = ReturnType<typeof policyJson>;

export { SEVERITIES } from "../../validation/index.ts";
