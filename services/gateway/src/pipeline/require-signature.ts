import type { FastifyRequest } from "fastify";
import { errors } from "../errors.ts";

/** Step 1: the X-Webhook-Signature value, or 401 missing_signature (blank counts as missing). */
export function requireSignature(request: FastifyRequest): string {
  const value = request.headers["x-webhook-signature"];
  const signature = (Array.isArray(value) ? value.join(",") : (value ?? "")).trim();
  if (signature === "") throw errors.missingSignature();
  return signature;
}
