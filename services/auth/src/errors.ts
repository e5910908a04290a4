import {
  ForbiddenError,
  InvalidError,
  type NameScope,
  NotFoundError,
  nameTakenError,
} from "@pulsegate/contract/errors";
import { NOT_FOUND_SENTENCES } from "@pulsegate/contract/not-found";
import { invalidCursor } from "@pulsegate/contract/page-cursor";

/** Every expected failure of the auth service, defined once, as plain domain errors (the gRPC edge maps them). */
export const authErrors = {
  teamNotFound: () => new NotFoundError("team_not_found", NOT_FOUND_SENTENCES.team_not_found),
  apiKeyNotFound: () => new NotFoundError("api_key_not_found", NOT_FOUND_SENTENCES.api_key_not_found),
  invalidCursor,
  nameTaken: (scope: NameScope) => nameTakenError(scope),
  invalidArgument: (field: string, message: string) => InvalidError.fields([{ field, message }]),
  signNotAllowed: () =>
    new ForbiddenError("sign_not_allowed", "Sign is served only on the signing listener (SIGNING_GRPC_LISTEN_ADDR)."),
  signingListenerOnly: () =>
    new ForbiddenError(
      "signing_listener_only",
      "The signing listener serves Sign only; use the main listener (GRPC_LISTEN_ADDR).",
    ),
};
