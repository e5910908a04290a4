import { type ErrorDetail, ServiceError } from "@pulsegate/grpc";

/** Every expected failure of the alerts service, defined once. */
export const alertsErrors = {
  webhookNotFound: () => new ServiceError("NOT_FOUND", "webhook_not_found", "No webhook has that id."),
  alertNotFound: () => new ServiceError("NOT_FOUND", "alert_not_found", "No alert has that id."),
  alertResolved: () =>
    new ServiceError(
      "FAILED_PRECONDITION",
      "alert_resolved",
      "The alert is resolved; it can no longer be acknowledged.",
    ),
  channelNotFound: () => new ServiceError("NOT_FOUND", "channel_not_found", "No channel has that id."),
  tooManyChannels: (max: number) =>
    new ServiceError("FAILED_PRECONDITION", "too_many_channels", `A team has at most ${max} channels.`),
  invalidCursor: () =>
    new ServiceError("INVALID_ARGUMENT", "invalid_cursor", "The cursor is not one this API returned."),
  invalid: (details: ErrorDetail[]) =>
    new ServiceError("INVALID_ARGUMENT", "invalid_request", details[0]?.message ?? "The request is invalid.", details),
};
