import { alerts, auth } from "@pulsegate/proto";
import type { FastifyRequest } from "fastify";
import { requireSignature } from "./require-signature.ts";
import { readStandardWebhooksRequest } from "./standard-webhooks-request.ts";
import { signedPayload } from "./timestamped-payload.ts";

/** What a webhook or monitor says about how requests to it are signed. */
export type SigningSource = { signatureScheme: alerts.SignatureScheme; requireTimestamp: boolean };

/** A request's signature, read by its source's scheme (step 3 checks it with auth). */
export type SignedRequest = {
  /** What auth.VerifySignature checks for the source's team. */
  verify: { payload: Buffer; signature: string; format: auth.SignatureFormat };
  /** The signature as sent and its signed timestamp, for the replay guard (replay-guard.ts): null unless the interface's scheme requires a timestamp. */
  signature: string;
  timestamp: number | null;
  /** A Standard Webhooks request's webhook-id: its idempotency key (idempotency-key.ts). Null for the interface's scheme. */
  webhookId: string | null;
};

/**
 * The signature of a request to a known webhook or monitor, as its scheme reads it: the
 * interface's X-Webhook-Signature (hex, over the body, or over "<timestamp>.<body>" where a
 * timestamp is required), or Standard Webhooks' three headers. Missing or malformed headers are
 * 401s that name them; the signature itself is auth's to check.
 */
export function readSignedRequest(request: FastifyRequest, body: Buffer, source: SigningSource): SignedRequest {
  if (source.signatureScheme === alerts.SignatureScheme.SIGNATURE_SCHEME_STANDARD_WEBHOOKS) {
    const standard = readStandardWebhooksRequest(request, body);
    return {
      verify: {
        payload: standard.bytes,
        signature: standard.signature,
        format: auth.SignatureFormat.SIGNATURE_FORMAT_STANDARD_WEBHOOKS,
      },
      signature: standard.signature,
      // A repeat is the idempotency key's to answer, not the replay guard's to refuse.
      timestamp: null,
      webhookId: standard.webhookId,
    };
  }
  const signature = requireSignature(request);
  const signed = signedPayload(request, body, source.requireTimestamp);
  return {
    verify: { payload: signed.bytes, signature, format: auth.SignatureFormat.SIGNATURE_FORMAT_HEX },
    signature,
    timestamp: signed.timestamp,
    webhookId: null,
  };
}
