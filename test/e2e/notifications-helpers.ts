import type { ChannelKind } from "@pulsegate/contract/vocabulary";
import type { Client } from "../support/client.ts";

export type DeliveryJson = {
  id: string;
  alertId: string;
  channelId: string;
  channelKind: string;
  eventType: string;
  eventId: string;
  status: string;
  attempts: number;
  maxAttempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  deliveredAt: string | null;
};

export async function createChannel(
  client: Client,
  teamId: string,
  body: { kind: ChannelKind; url: string; name?: string; key?: string },
): Promise<{ id: string; maskedUrl: string }> {
  const response = await client.createNamed(`/teams/${teamId}/channels`, `${body.kind} channel`, body);
  if (response.status !== 201) throw new Error(`create channel: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.channel as { id: string; maskedUrl: string };
}

export async function deliveriesOf(client: Client, alertId: string): Promise<DeliveryJson[]> {
  const response = await client.admin("GET", `/alerts/${alertId}/deliveries`);
  if (response.status !== 200) throw new Error(`deliveries: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.deliveries as DeliveryJson[];
}

/** Polls the admin API until the alert's deliveries satisfy `done`. */
export async function waitForDeliveries(
  client: Client,
  alertId: string,
  done: (deliveries: DeliveryJson[]) => boolean,
  what: string,
  timeoutMs = 20_000,
): Promise<DeliveryJson[]> {
  const deadline = Date.now() + timeoutMs;
  let last: DeliveryJson[] = [];
  while (Date.now() < deadline) {
    last = await deliveriesOf(client, alertId);
    if (done(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}; deliveries: ${JSON.stringify(last)}`);
}

export const allSettled = (deliveries: DeliveryJson[]) =>
  deliveries.length > 0 && deliveries.every((delivery) => delivery.status !== "pending");
