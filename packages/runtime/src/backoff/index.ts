export { type BackoffOptions, backoffDelay, exponentialDelay } from "./backoff.ts";
