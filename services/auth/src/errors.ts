import { ServiceError } from "@pulsegate/grpc";

/** Every expected failure of the auth service, defined once. */
export const authErrors = {
  teamNotFound: () => new ServiceError("NOT_FOUND", "team_not_found", "No team has that id."),
  invalidArgument: (field: string, message: string) =>
    new ServiceError("INVALID_ARGUMENT", "invalid_request", message, [{ field, message }]),
};
