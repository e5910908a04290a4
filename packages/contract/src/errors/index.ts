export {
  ConflictError,
  DomainError,
  type FieldProblem,
  ForbiddenError,
  InvalidError,
  NotFoundError,
  RETRY_SHORTLY_CODE,
  UnavailableError,
} from "./domain-errors.ts";
export { NAME_TAKEN_CODE, type NameScope, nameTakenError } from "./name-taken.ts";
