import { type ErrorDetail, ServiceError } from "@pulsegate/grpc";
import { NOT_FOUND_SENTENCES } from "@pulsegate/not-found";

/** Every expected failure of the alerts service, defined once. */
export const alertsErrors = {
  webhookNotFound: () => new ServiceError("NOT_FOUND", "webhook_not_found", NOT_FOUND_SENTENCES.webhook_not_found),
  alertNotFound: () => new ServiceError("NOT_FOUND", "alert_not_found", "No alert has that id."),
  alertResolved: () =>
    new ServiceError(
      "FAILED_PRECONDITION",
      "alert_resolved",
      "The alert is resolved; it can no longer be acknowledged.",
    ),
  channelNotFound: () => new ServiceError("NOT_FOUND", "channel_not_found", "No channel has that id."),
  deliveryNotFound: () => new ServiceError("NOT_FOUND", "delivery_not_found", "No delivery has that id."),
  deliveryNotFailed: (status: string) =>
    new ServiceError(
      "FAILED_PRECONDITION",
      "delivery_not_failed",
      `Only a failed delivery can be sent again; this one is ${status}.`,
    ),
  channelUnavailable: () =>
    new ServiceError(
      "FAILED_PRECONDITION",
      "channel_unavailable",
      "The delivery's channel is disabled or deleted; enable or recreate it first.",
    ),
  tooManyChannels: (max: number) =>
    new ServiceError("FAILED_PRECONDITION", "too_many_channels", `A team has at most ${max} channels.`),
  invalidCursor: () =>
    new ServiceError("INVALID_ARGUMENT", "invalid_cursor", "The cursor is not one this API returned."),
  invalid: (details: ErrorDetail[]) =>
    new ServiceError("INVALID_ARGUMENT", "invalid_request", details[0]?.message ?? "The request is invalid.", details),
};
