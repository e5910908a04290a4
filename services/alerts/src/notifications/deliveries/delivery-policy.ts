/**
 * What an HTTP answer means for a delivery (like Svix's policy):
 * success on 2xx; try again later on 5xx, 408, 425 and 429 (Retry-After
 * honoured), on a redirect (not followed; the receiver may be mid-deploy)
 * and when no answer came; any other 4xx fails the delivery at once, since
 * sending the same request again cannot change the receiver's mind; 410 Gone
 * also disables the channel.
 */
export type AnswerVerdict = "delivered" | "retry" | "fail" | "gone";

const RETRIED_4XX = new Set([408, 425, 429]);

export function verdictOf(statusCode: number): AnswerVerdict {
  if (statusCode >= 200 && statusCode < 300) return "delivered";
  if (statusCode === 410) return "gone";
  if (statusCode >= 400 && statusCode < 500 && !RETRIED_4XX.has(statusCode)) return "fail";
  return "retry";
}
