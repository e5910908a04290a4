import { type ErrorDetail, ServiceError } from "@pulsegate/grpc";
import { NOT_FOUND_SENTENCES } from "@pulsegate/not-found";

/** Every expected failure of the monitors service, defined once. */
export const monitorsErrors = {
  monitorNotFound: () => new ServiceError("NOT_FOUND", "monitor_not_found", NOT_FOUND_SENTENCES.monitor_not_found),
  invalidCursor: () =>
    new ServiceError("INVALID_ARGUMENT", "invalid_cursor", "The cursor is not one this API returned."),
  invalid: (details: ErrorDetail[]) =>
    new ServiceError("INVALID_ARGUMENT", "invalid_request", details[0]?.message ?? "The request is invalid.", details),
  databaseUnavailable: () =>
    new ServiceError("UNAVAILABLE", "database_unavailable", "The monitors database is unavailable; retry shortly."),
  pingNotStored: () =>
    new ServiceError(
      "UNAVAILABLE",
      "ping_not_stored",
      "Neither the database nor the ping spool is reachable, so the ping was not stored; retry shortly.",
    ),
};
