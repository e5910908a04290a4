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
