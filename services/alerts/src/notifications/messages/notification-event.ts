/** An alert's outbox event (alertEvent), read back from JSON. */
export type NotificationEvent = {
  type: string;
  occurredAt: string;
  alert: {
    id?: unknown;
    title?: unknown;
    description?: unknown;
    severity?: unknown;
    occurrenceCount?: unknown;
    status?: unknown;
    groupKey?: unknown;
    source?: unknown;
    metadata?: unknown;
    [key: string]: unknown;
  };
};

/**
 * The body of a `webhook` channel delivery: the event with its id, as JSON.
 * The same event gives the same bytes on every attempt.
 */
export function webhookBody(eventId: string, event: NotificationEvent): Buffer {
  return Buffer.from(
    JSON.stringify({ id: eventId, type: event.type, occurredAt: event.occurredAt, alert: event.alert }),
  );
}
