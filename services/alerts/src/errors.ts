import {
  ConflictError,
  type FieldProblem,
  InvalidError,
  type NameScope,
  NotFoundError,
  nameTakenError,
  TooManyError,
} from "@pulsegate/contract/errors";
import { NOT_FOUND_SENTENCES } from "@pulsegate/contract/not-found";
import { invalidCursor } from "@pulsegate/contract/page-cursor";

/** Every expected failure of the alerts service, defined once, as plain domain errors (the gRPC edge maps them). */
export const alertsErrors = {
  webhookNotFound: () => new NotFoundError("webhook_not_found", NOT_FOUND_SENTENCES.webhook_not_found),
  alertNotFound: () => new NotFoundError("alert_not_found", NOT_FOUND_SENTENCES.alert_not_found),
  alertResolved: () => new ConflictError("alert_resolved", "The alert is resolved; it can no longer be acknowledged."),
  channelNotFound: () => new NotFoundError("channel_not_found", NOT_FOUND_SENTENCES.channel_not_found),
  deliveryNotFound: () => new NotFoundError("delivery_not_found", NOT_FOUND_SENTENCES.delivery_not_found),
  deliveryNotFailed: (status: string) =>
    new ConflictError("delivery_not_failed", `Only a failed delivery can be sent again; this one is ${status}.`),
  channelUnavailable: () =>
    new ConflictError(
      "channel_unavailable",
      "The delivery's channel is disabled or deleted; enable or recreate it first.",
    ),
  noBearerToken: () =>
    new ConflictError(
      "conflict",
      "Only an Alertmanager webhook has a bearer token: this one is signed with the team's webhook secret.",
    ),
  noSigningSecret: () =>
    new ConflictError(
      "no_signing_secret",
      "Only a webhook channel created with signatureScheme standard-webhooks has a signing secret of its own; the others sign with the team's webhook secret.",
    ),
  /** POST /channels/{id}/test while the channel's own test, or 3 of its team's, are in flight (channel-test-leases.ts). */
  channelTestInProgress: (retryAfterSeconds: number) =>
    new TooManyError(
      "channel_test_in_progress",
      "A test notification is already being sent through this channel, or the team has 3 in flight; retry after Retry-After seconds.",
      retryAfterSeconds,
    ),
  tooManyChannels: (max: number) => new ConflictError("too_many_channels", `A team has at most ${max} channels.`),
  nameTaken: (scope: NameScope) => nameTakenError(scope),
  invalidCursor,
  invalid: (details: FieldProblem[]) => InvalidError.fields(details),
};
