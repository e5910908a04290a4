import { callUnary } from "@pulsegate/grpc";
import type { FastifyInstance } from "fastify";
import type { Peers } from "../../peers/connect-peers.ts";
import { ADMIN_ONLY } from "./access.ts";

const counts = {
  type: "object",
  required: ["resealed", "alreadyCurrent", "kekId"],
  properties: {
    resealed: { type: "integer", description: "Values re-sealed by this call." },
    alreadyCurrent: { type: "integer", description: "Values already under the current KEK." },
    kekId: { type: "string", description: "Id of the KEK that service seals under (never key material)." },
  },
} as const;

/**
 * KEK rotation (docs/secrets.md), the admin API's side of `npm run rotate-kek`:
 * auth re-seals every team's secret, alerts every channel's credentials, each
 * under the first key of its own SECRET_KEK. Idempotent; admin token only,
 * since it touches every team.
 */
export async function kekRoutes(app: FastifyInstance, { peers }: { peers: Peers }): Promise<void> {
  app.post(
    "/kek/reseal",
    {
      config: ADMIN_ONLY,
      schema: {
        tags: ["operations"],
        summary: "Re-seal every sealed value under the current KEK (admin token only)",
        description:
          "After putting a new key first in SECRET_KEK and restarting auth and alerts: re-seals teams' webhook secrets and channels' credentials under it. Then the old key can be dropped.",
        response: {
          200: {
            description: "What each service re-sealed.",
            type: "object",
            required: ["teams", "channels"],
            properties: { teams: counts, channels: counts },
          },
        },
      },
    },
    async () => {
      // One after the other: each walks its whole table a page at a time.
      const teams = await callUnary(peers.auth, "resealSecrets", {}, { deadlineMs: RESEAL_TIMEOUT_MS });
      const channels = await callUnary(peers.alerts, "resealChannelCredentials", {}, { deadlineMs: RESEAL_TIMEOUT_MS });
      return {
        teams: { resealed: teams.resealed, alreadyCurrent: teams.alreadyCurrent, kekId: teams.kekId },
        channels: { resealed: channels.resealed, alreadyCurrent: channels.alreadyCurrent, kekId: channels.kekId },
      };
    },
  );
}

/** Longer than an ordinary admin call: 100,000 rows take seconds. */
const RESEAL_TIMEOUT_MS = 120_000;
