/**
 * The instants the admin API stores (a team's subscription end, a silence's window) and its page
 * cursors carry: from the Unix epoch to the last millisecond of year 9999, every one of which
 * JavaScript's Date, PostgreSQL's timestamptz and protobuf's Timestamp hold exactly. Before 1970 a
 * Timestamp made from a Date with milliseconds gets negative nanos, which protobuf forbids; after
 * 9999 protobuf's Timestamp ends. Enforced by auth (teams) and alerts (silences); the gateway's
 * `date-time` format and the page cursors read it.
 */
export const INSTANT_LIMITS = {
  earliest: "1970-01-01T00:00:00.000Z",
  latest: "9999-12-31T23:59:59.999Z",
} as const;

const EARLIEST_MS = Date.parse(INSTANT_LIMITS.earliest);
const LATEST_MS = Date.parse(INSTANT_LIMITS.latest);

/** A real instant (not an Invalid Date) within INSTANT_LIMITS. */
export function isWithinInstantLimits(date: Date): boolean {
  const ms = date.getTime();
  // NaN, an Invalid Date's time, fails both comparisons.
  return ms >= EARLIEST_MS && ms <= LATEST_MS;
}

/** The sentence for a date-time that is not one: the same wherever it is refused. */
export const instantSentence = (field: string): string =>
  `${field} must be a date and time from ${INSTANT_LIMITS.earliest} to ${INSTANT_LIMITS.latest}, written as in RFC 3339 (2026-03-01T02:00:00Z; no leap second).`;
