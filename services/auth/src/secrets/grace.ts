import { TEAM_LIMITS } from "@pulsegate/contract/limits";
import { authErrors } from "../errors.ts";

/**
 * The grace rule: a rotation keeps the rotated-out secret verifying for a grace period, a day
 * unless the caller asks for another (0 to TEAM_LIMITS.maxGraceSeconds); a value out of range is
 * refused as an invalid argument. Returns the grace in seconds.
 */
export function graceSecondsOf(requested: number | undefined): number {
  const grace = requested ?? TEAM_LIMITS.defaultGraceSeconds;
  if (!Number.isInteger(grace) || grace < 0 || grace > TEAM_LIMITS.maxGraceSeconds) {
    throw authErrors.invalidArgument(
      "graceSeconds",
      `graceSeconds must be a whole number from 0 to ${TEAM_LIMITS.maxGraceSeconds}.`,
    );
  }
  return grace;
}

/** Until when the secret rotated out at `rotatedAt` verifies. */
export function graceEndsAt(rotatedAt: Date, graceSeconds: number): Date {
  return new Date(rotatedAt.getTime() + graceSeconds * 1000);
}

/** Whether a rotated-out secret still verifies at `now` (ms since the epoch). */
export function inGrace(validUntil: Date, now: number): boolean {
  return now < validUntil.getTime();
}
