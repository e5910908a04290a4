import {
  type FieldProblem,
  InvalidError,
  type NameScope,
  NotFoundError,
  nameTakenError,
  UnavailableError,
} from "@pulsegate/contract/errors";
import { NOT_FOUND_SENTENCES } from "@pulsegate/contract/not-found";
import { invalidCursor } from "@pulsegate/contract/page-cursor";

/** Every expected failure of the monitors service, defined once, as plain domain errors (the gRPC edge maps them). */
export const monitorsErrors = {
  monitorNotFound: () => new NotFoundError("monitor_not_found", NOT_FOUND_SENTENCES.monitor_not_found),
  invalidCursor,
  nameTaken: (scope: NameScope) => nameTakenError(scope),
  invalid: (details: FieldProblem[]) => InvalidError.fields(details),
  pingNotStored: () =>
    new UnavailableError(
      "Neither the database nor the ping spool is reachable, so the ping was not stored; retry shortly.",
    ),
};
