import { HttpError } from "../errors.ts";

/** The HttpError `fn` throws; fails the test when it throws something else or nothing. */
export function thrownHttpError(fn: () => unknown): HttpError {
  try {
    fn();
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error("did not throw");
}
