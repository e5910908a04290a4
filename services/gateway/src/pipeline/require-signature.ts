import type { FastifyRequest } from "fastify";
import { errors } from "../errors.ts";

/** A header's value as one string, trimmed ("" when absent or blank; repeated ones joined as Node joins them). */
export function headerText(request: FastifyRequest, name: string): string {
  const value = request.headers[name];
  return (Array.isArray(value) ? value.join(",") : (value ?? "")).trim();
}

/**
 * Step 1, before the webhook or monitor is known: some signature is present, the interface's
 * X-Webhook-Signature or a Standard Webhooks webhook-signature; else 401 missing_signature (blank
 * counts as missing). Which of the two the source takes is checked once it is known (signed-request.ts).
 */
export function requireSignatureHeader(request: FastifyRequest): void {
  if (headerText(request, "x-webhook-signature") === "" && headerText(request, "webhook-signature") === "") {
    throw errors.missingSignature();
  }
}

/** The X-Webhook-Signature value, or 401 missing_signature (blank counts as missing). */
export function requireSignature(request: FastifyRequest): string {
  const signature = headerText(request, "x-webhook-signature");
  if (signature === "") throw errors.missingSignature();
  return signature;
}
