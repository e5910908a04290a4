import { randomUUID } from "node:crypto";
import type { Sendable, SendOutcome } from "../deliveries/dispatcher.ts";
import type { Channel } from "./channel.entity.ts";

/** The event type of a test message: no alert and no delivery behind it. */
export const TEST_EVENT = "channel.test";

export type TestResult = { delivered: boolean; statusCode: number | null; error: string; durationMs: number };

/**
 * Sends a clearly marked test message through a channel now, with the sender every delivery uses
 * (its request, signature, private-address guard and timeout), and says how the receiver answered.
 * Nothing is stored and nothing is retried. An incident tool (PagerDuty, Opsgenie) gets the test
 * as an incident of the lowest severity and, once it took it, its resolve: nobody stays paged.
 */
export async function sendTestNotification(
  send: (message: Sendable) => Promise<SendOutcome>,
  channel: Pick<
    Channel,
    "id" | "teamId" | "kind" | "credentialsSealed" | "signatureScheme" | "previousSigningSecretValidUntil"
  >,
  now: Date = new Date(),
): Promise<TestResult> {
  const id = `test_${randomUUID().replaceAll("-", "")}`;
  const alert = {
    id,
    title: "[TEST] Pulsegate test notification: no action needed",
    description: "Sent to check that this channel reaches you. It belongs to no alert.",
    severity: "sev4",
    occurrenceCount: 1,
    status: "open",
    source: "test",
    sourceId: channel.id,
    groupKey: null,
    metadata: { test: true },
  };
  const message = (type: string): Sendable => ({
    id,
    outboxId: id,
    teamId: channel.teamId,
    channelId: channel.id,
    kind: channel.kind,
    credentialsSealed: Buffer.from(channel.credentialsSealed),
    signatureScheme: channel.signatureScheme ?? null,
    previousSigningSecretValidUntil: channel.previousSigningSecretValidUntil ?? null,
    attempt: 1,
    eventType: type,
    payload: { type, occurredAt: now.toISOString(), alert },
  });
  const started = performance.now();
  const outcome = await send(message(TEST_EVENT));
  const durationMs = Math.round(performance.now() - started);
  const delivered = outcome.verdict === "delivered";
  if (delivered && (channel.kind === "pagerduty" || channel.kind === "opsgenie")) await send(message("alert.resolved"));
  return { delivered, statusCode: outcome.statusCode, error: outcome.error, durationMs };
}
