export { isTransientError } from "./is-transient-error.ts";
