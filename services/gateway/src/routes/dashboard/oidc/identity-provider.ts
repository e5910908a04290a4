import * as client from "openid-client";
import type { ProviderGrant } from "../session-store.ts";
import type { OidcSettings } from "./oidc-settings.ts";

/** Who the provider says signed in: its subject, a name and email to show, and its groups. */
export type Person = { subject: string; name: string; email: string; groups: string[] };

/** What the callback must check, kept in the browser (sealed) between the redirect and the callback. */
export type PendingSignIn = { state: string; nonce: string; codeVerifier: string; returnTo: string };

/** The provider's answer: refused (the grant or the token no longer works), or the person as it is now. */
export type CheckResult = { refused: true } | { refused: false; person: Person; grant: ProviderGrant };

export type IdentityProvider = {
  /** The provider's authorization URL for a new sign-in, and what the callback will check. */
  begin: (redirectUri: string, returnTo: string) => Promise<{ url: URL; pending: PendingSignIn }>;
  /** Checks the callback (state, PKCE, nonce), exchanges the code, and reads the person. */
  finish: (callbackUrl: URL, pending: PendingSignIn) => Promise<{ person: Person; grant: ProviderGrant }>;
  /** Asks the provider again (refresh grant, then userinfo); throws only when it cannot be reached. */
  check: (subject: string, grant: ProviderGrant) => Promise<CheckResult>;
};

const text = (value: unknown) => (typeof value === "string" ? value : "");

function personOf(settings: OidcSettings, subject: string, claims: Record<string, unknown>): Person {
  const groups = claims[settings.groupsClaim];
  return {
    subject,
    name: text(claims.name) || text(claims.preferred_username) || text(claims.email) || subject,
    email: text(claims.email),
    groups: Array.isArray(groups) ? groups.filter((group): group is string => typeof group === "string") : [],
  };
}

/** A refusal by the provider, as opposed to the provider being away. */
const isRefusal = (error: unknown) =>
  error instanceof client.ResponseBodyError || error instanceof client.WWWAuthenticateChallengeError;

/**
 * The OpenID provider through `openid-client`: authorization code with PKCE, a nonce and a state.
 * Its metadata is discovered on first use (and again after a failure), so the gateway starts
 * while the provider is away.
 */
export function createIdentityProvider(settings: OidcSettings): IdentityProvider {
  let discovered: Promise<client.Configuration> | undefined;
  const configuration = () => {
    discovered ??= client
      .discovery(
        settings.issuer,
        settings.clientId,
        undefined,
        client.ClientSecretBasic(settings.clientSecret),
        settings.issuer.protocol === "http:" ? { execute: [client.allowInsecureRequests] } : undefined,
      )
      .catch((error: unknown) => {
        discovered = undefined;
        throw error;
      });
    return discovered;
  };

  /** The person as userinfo states it now (the ID token's claims under it). */
  const readPerson = async (
    config: client.Configuration,
    accessToken: string,
    subject: string,
    idClaims: Record<string, unknown>,
  ) => personOf(settings, subject, { ...idClaims, ...(await client.fetchUserInfo(config, accessToken, subject)) });

  return {
    begin: async (redirectUri, returnTo) => {
      const config = await configuration();
      const pending: PendingSignIn = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        codeVerifier: client.randomPKCECodeVerifier(),
        returnTo,
      };
      const parameters: Record<string, string> = {
        redirect_uri: redirectUri,
        scope: settings.scopes,
        state: pending.state,
        nonce: pending.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(pending.codeVerifier),
        code_challenge_method: "S256",
      };
      // OpenID Connect Core 11: offline_access is ignored unless the person is asked to consent.
      if (settings.scopes.split(" ").includes("offline_access")) parameters.prompt = "consent";
      return { url: client.buildAuthorizationUrl(config, parameters), pending };
    },
    finish: async (callbackUrl, pending) => {
      const config = await configuration();
      const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const idClaims: Record<string, unknown> = tokens.claims() ?? {};
      const subject = text(idClaims.sub);
      const person = await readPerson(config, tokens.access_token, subject, idClaims);
      return {
        person,
        grant: { accessToken: tokens.access_token, refreshToken: tokens.refresh_token, checkedAt: Date.now() },
      };
    },
    check: async (subject, grant) => {
      const config = await configuration();
      try {
        // Without a refresh token (a provider that gives none), the access token until it expires.
        const tokens = grant.refreshToken ? await client.refreshTokenGrant(config, grant.refreshToken) : undefined;
        const accessToken = tokens?.access_token ?? grant.accessToken;
        const person = await readPerson(config, accessToken, subject, {});
        return {
          refused: false,
          person,
          grant: { accessToken, refreshToken: tokens?.refresh_token ?? grant.refreshToken, checkedAt: Date.now() },
        };
      } catch (error) {
        if (isRefusal(error)) return { refused: true };
        throw error;
      }
    },
  };
}
