import { callUnary } from "@pulsegate/grpc";
import { alerts } from "@pulsegate/proto";
import { signatureSchemeJson } from "../../json-vocabulary.ts";
import type { Peers } from "../../peers/connect-peers.ts";

/**
 * How a standard-webhooks webhook's or monitor's key is formed. The team secret is never stored
 * (docs/secrets.md), so the whsec_ key cannot be shown again: it was shown once beside the secret
 * (standardWebhooksSecret), and anyone holding the secret can form it.
 */
export const STANDARD_WEBHOOKS_KEY_FORMAT =
  "whsec_ + base64 of the team's webhook secret (its 64 hex characters, as text): the standardWebhooksSecret shown with the secret.";

/** A webhook's or monitor's signing fields; teamSecretFingerprint is filled by withTeamSecretFingerprints. */
export function signingKeyJson(scheme: alerts.SignatureScheme) {
  const standard = scheme === alerts.SignatureScheme.SIGNATURE_SCHEME_STANDARD_WEBHOOKS;
  return {
    signatureScheme: signatureSchemeJson(scheme) ?? "pulsegate",
    signingSecretFormat: standard ? STANDARD_WEBHOOKS_KEY_FORMAT : null,
    teamSecretFingerprint: null as string | null,
  };
}

type SigningView = { teamId: string; signatureScheme: string | null; teamSecretFingerprint: string | null };

/**
 * Standard-webhooks views with the fingerprint of the team secret their key is formed from (the
 * team's secretFingerprint, already shown with the team), so a caller can tell which secret the
 * whsec_ key must come from after a rotation. One GetTeam per team among them; none for others.
 */
export async function withTeamSecretFingerprints<View extends SigningView>(
  peers: Peers,
  views: View[],
): Promise<View[]> {
  const teams = [
    ...new Set(views.filter((view) => view.signatureScheme === "standard-webhooks").map((view) => view.teamId)),
  ];
  if (teams.length === 0) return views;
  const fingerprints = new Map(
    await Promise.all(
      teams.map(async (teamId) => {
        const { team } = await callUnary(peers.auth, "getTeam", { teamId });
        return [teamId, team?.secretFingerprint || null] as const;
      }),
    ),
  );
  return views.map((view) =>
    view.signatureScheme === "standard-webhooks"
      ? { ...view, teamSecretFingerprint: fingerprints.get(view.teamId) ?? null }
      : view,
  );
}
