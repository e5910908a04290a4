import { ServiceError } from "@pulsegate/grpc";

/** Every expected failure of the auth service, defined once. */
export const authErrors = {
  teamNotFound: () => new ServiceError("NOT_FOUND", "team_not_found", "No team has that id."),
  apiKeyNotFound: () => new ServiceError("NOT_FOUND", "api_key_not_found", "No API key has that id."),
  invalidCursor: () =>
    new ServiceError("INVALID_ARGUMENT", "invalid_cursor", "The cursor is not one this API returned."),
  invalidArgument: (field: string, message: string) =>
    new ServiceError("INVALID_ARGUMENT", "invalid_request", message, [{ field, message }]),
  signNotAllowed: () =>
    new ServiceError(
      "PERMISSION_DENIED",
      "sign_not_allowed",
      "Sign is served only on the signing listener (SIGNING_GRPC_LISTEN_ADDR).",
    ),
  signingListenerOnly: () =>
    new ServiceError(
      "PERMISSION_DENIED",
      "signing_listener_only",
      "The signing listener serves Sign only; use the main listener (GRPC_LISTEN_ADDR).",
    ),
};
