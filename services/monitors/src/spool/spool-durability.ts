import type { PingSpool } from "./ping-spool.ts";

export type SpoolDurability = "none" | "durable" | "aof_not_fsynced" | "not_durable" | "unknown";

export type SpoolStatus = {
  durability: SpoolDurability;
  appendonly: string;
  appendfsync: string;
  /** Pings waiting to be drained; -1 when Redis cannot be read. */
  depth: number;
  spooling: boolean;
};

/**
 * An acknowledged ping that went to the spool is only as safe as Redis keeps
 * it: with AOF and `appendfsync always` it survives a Redis restart; with
 * `everysec` about a second of pings can go; without AOF every spooled ping
 * is lost when Redis restarts before the drain (docs/monitors.md).
 */
export function durabilityOf(settings: { appendonly: string; appendfsync: string } | null): SpoolDurability {
  if (!settings) return "unknown";
  if (settings.appendonly !== "yes") return "not_durable";
  return settings.appendfsync === "always" ? "durable" : "aof_not_fsynced";
}

/**
 * REDIS_DURABILITY: "probe" asks Redis (CONFIG GET appendonly, appendfsync); any other value is
 * the operator's word for it, used as is, for a managed Redis that refuses CONFIG and would
 * otherwise be "unknown" (and readiness degraded) for good.
 */
export const REDIS_DURABILITY_SETTINGS = ["probe", "durable", "aof_not_fsynced", "not_durable"] as const;
export type RedisDurabilitySetting = (typeof REDIS_DURABILITY_SETTINGS)[number];

export async function describeSpool(
  spool: PingSpool,
  spooling: boolean,
  setting: RedisDurabilitySetting = "probe",
): Promise<SpoolStatus> {
  if (!spool.configured) return { durability: "none", appendonly: "", appendfsync: "", depth: 0, spooling: false };
  if (setting !== "probe") {
    // Stated, not probed: Redis's own settings are not asked, so not reported either.
    const depth = await spool.length().catch(() => -1);
    return { durability: setting, appendonly: "", appendfsync: "", depth, spooling };
  }
  const [settings, depth] = await Promise.all([spool.persistence().catch(() => null), spool.length().catch(() => -1)]);
  return {
    durability: durabilityOf(settings),
    appendonly: settings?.appendonly ?? "",
    appendfsync: settings?.appendfsync ?? "",
    depth,
    spooling,
  };
}

/** The warning for a spool that may lose acknowledged pings, or null when it keeps them. */
export function durabilityWarning(status: SpoolStatus): string | null {
  switch (status.durability) {
    case "not_durable":
      return "Redis runs without AOF (appendonly no): spooled pings are NOT durable and are lost if Redis restarts before they are drained; run Redis with appendonly yes and appendfsync always";
    case "aof_not_fsynced":
      return `Redis fsyncs its AOF ${status.appendfsync === "no" ? "when the OS decides" : "once a second"} (appendfsync ${status.appendfsync}): about a second of spooled pings can be lost if Redis crashes; set appendfsync always`;
    case "unknown":
      return "Redis does not report its persistence settings (CONFIG GET refused or unreachable): spooled pings are durable only if it runs with appendonly yes and appendfsync always";
    default:
      return null;
  }
}
