import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { UserActor } from "./actor.ts";

/** Marks a pass among bearer tokens: admin tokens and team keys never start with it. */
const PREFIX = "pgu.";

/**
 * How a person signed in to the dashboard acts through the admin API in process (the dashboard
 * calls it with inject, as a bearer like everyone else): a pass naming them, signed with a key
 * this process made at start and never shows, valid for `ttlMs`. So the admin API's own checks
 * and audit entries apply to people too, and a pass is of no use outside this process.
 */
export type UserPasses = {
  issue: (user: UserActor) => string;
  /** The person a pass names, or undefined when it is not a pass of this process or has expired. */
  open: (token: string) => UserActor | undefined;
  isPass: (token: string) => boolean;
};

export function createUserPasses(ttlMs = 60_000): UserPasses {
  const key = randomBytes(32);
  const mac = (body: string) => createHmac("sha256", key).update(body).digest("base64url");
  return {
    issue: (user) => {
      const body = Buffer.from(JSON.stringify({ user, until: Date.now() + ttlMs })).toString("base64url");
      return `${PREFIX}${body}.${mac(body)}`;
    },
    open: (token) => {
      if (!token.startsWith(PREFIX)) return undefined;
      const [body = "", signature = ""] = token.slice(PREFIX.length).split(".");
      const expected = Buffer.from(mac(body));
      const presented = Buffer.from(signature);
      if (expected.length !== presented.length || !timingSafeEqual(expected, presented)) return undefined;
      const pass = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as { user: UserActor; until: number };
      return pass.until > Date.now() ? pass.user : undefined;
    },
    isPass: (token) => token.startsWith(PREFIX),
  };
}
