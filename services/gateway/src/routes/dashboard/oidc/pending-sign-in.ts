// The sign-in under way between the redirect to the provider and its callback: kept in the browser,
// sealed (AES-256-GCM, packages/sealing) under a key derived from the client secret, which every
// replica has, so any replica finishes what another began. SameSite=Lax: the callback is a
// navigation from the provider's site, which a Strict cookie would not come with.
import { createHash, createSecretKey } from "node:crypto";
import { type Keyring, openValue, SealedValueError, sealValue } from "@pulsegate/sealing";
import type { FastifyReply, FastifyRequest } from "fastify";
import { secureFor } from "../session-cookie.ts";
import type { PendingSignIn } from "./identity-provider.ts";

const COOKIE = "pulsegate_oidc";
const PATH = "/dashboard/oidc";
const PURPOSE = "dashboard-oidc-pending";
const OWNER = "pending-sign-in";
/** Time to sign in at the provider (and consent) before the callback is refused. */
const PENDING_SECONDS = 600;

export type PendingCookie = {
  set: (request: FastifyRequest, reply: FastifyReply, pending: PendingSignIn) => void;
  /** The sign-in this browser began here and not long ago, or undefined. */
  take: (request: FastifyRequest, reply: FastifyReply) => PendingSignIn | undefined;
};

export function createPendingCookie(clientSecret: string): PendingCookie {
  const key = createSecretKey(createHash("sha256").update("pulsegate/oidc-pending\0").update(clientSecret).digest());
  const keyring: Keyring = { current: { id: "oidc-client", key }, byId: new Map([["oidc-client", key]]) };
  const options = (request: FastifyRequest) =>
    ({ path: PATH, httpOnly: true, sameSite: "lax", secure: secureFor(request) }) as const;
  return {
    set: (request, reply, pending) => {
      const plain = Buffer.from(JSON.stringify({ ...pending, until: Date.now() + PENDING_SECONDS * 1000 }));
      const sealed = sealValue(plain, keyring, PURPOSE, OWNER).toString("base64url");
      reply.setCookie(COOKIE, sealed, { ...options(request), maxAge: PENDING_SECONDS });
    },
    take: (request, reply) => {
      const sealed = request.cookies[COOKIE];
      if (sealed === undefined) return undefined;
      reply.clearCookie(COOKIE, options(request));
      let plain: Buffer;
      try {
        plain = openValue(Buffer.from(sealed, "base64url"), keyring, PURPOSE, OWNER);
      } catch (error) {
        if (error instanceof SealedValueError) return undefined;
        throw error;
      }
      const { until, ...pending } = JSON.parse(plain.toString("utf8")) as PendingSignIn & { until: number };
      return until > Date.now() ? pending : undefined;
    },
  };
}
