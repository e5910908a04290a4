import { auth } from "@pulsegate/proto";
import { errors, type HttpError } from "../errors.ts";
import type { CoalescedCalls } from "../peers/coalesced-calls.ts";
import { standardWebhooksErrors } from "./standard-webhooks-request.ts";

/**
 * Step 3: auth checks the signature over the exact bytes received, against the
 * team's current or previous secret, and returns the team's access in the same
 * call. A team that no longer exists answers as the resource not found.
 */
export async function requireValidSignature(
  calls: CoalescedCalls,
  item: auth.VerifySignatureItem,
  notFound: () => HttpError,
): Promise<auth.TeamAccess> {
  const result = await calls.checkSignature(item);
  switch (result?.outcome) {
    case auth.VerifyOutcome.VERIFY_OUTCOME_VALID_CURRENT:
    case auth.VerifyOutcome.VERIFY_OUTCOME_VALID_PREVIOUS:
      if (!result.access) throw new Error("VerifySignature returned no access for a valid signature");
      return result.access;
    case auth.VerifyOutcome.VERIFY_OUTCOME_INVALID:
      throw item.format === auth.SignatureFormat.SIGNATURE_FORMAT_STANDARD_WEBHOOKS
        ? standardWebhooksErrors.invalidSignature()
        : errors.invalidSignature();
    case auth.VerifyOutcome.VERIFY_OUTCOME_TEAM_NOT_FOUND:
      throw notFound();
    default:
      throw new Error(`VerifySignature returned outcome ${String(result?.outcome)}`);
  }
}

/** Step 4. */
export function requireActiveSubscription(access: auth.TeamAccess): void {
  if (!access.subscriptionActive) throw errors.subscriptionExpired();
}
