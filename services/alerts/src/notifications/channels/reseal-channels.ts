import type { PgPool } from "@pulsegate/db";
import { type ResealCounts, resealInPages } from "@pulsegate/sealing";
import type { ChannelSealer } from "./channel-credentials.ts";
import { sealedChannelCredentials } from "./sealed-channel-credentials.ts";

/** Re-seals every channel's credentials (deleted channels' too) under the current KEK. */
export async function resealChannels(pool: PgPool, sealer: ChannelSealer): Promise<ResealCounts> {
  return resealInPages({
    ...sealedChannelCredentials(pool),
    reseal: (row) => {
      const resealed = sealer.resealIfOld(row.id, row.credentials_sealed);
      return resealed === null
        ? null
        : { id: row.id, old: row.credentials_sealed.toString("hex"), sealed: resealed.toString("hex") };
    },
  });
}
