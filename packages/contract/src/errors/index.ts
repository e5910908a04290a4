export {
  ConflictError,
  DomainError,
  type FieldProblem,
  ForbiddenError,
  InvalidError,
  NotFoundError,
  RETRY_SHORTLY_CODE,
  TooManyError,
  UnavailableError,
} from "./domain-errors.ts";
export { NAME_TAKEN_CODE, type NameScope, nameTakenError } from "./name-taken.ts";
