import { randomUUID } from "node:crypto";
import type { Orm } from "@pulsegate/db";
import { alertsErrors } from "../../errors.ts";

/** Tests in flight at once: one per channel, and this many per team. */
const CHANNEL_TESTS_PER_TEAM = 3;

/** Serialises one team's takes, so the count and the channel's lease are read and written as one. */
const LOCK_TEAM_TESTS = "SELECT pg_advisory_xact_lock(hashtextextended(?, 0))";
/**
 * Leases whose test outlived them (a replica that crashed) no longer count, and are deleted, every
 * team's, so the table stays as small as the tests in flight. Housekeeping only (rows another take
 * is deleting are skipped, never waited for): the reads below ignore an expired lease anyway.
 */
const DELETE_EXPIRED = `
  DELETE FROM alerts.channel_test_leases WHERE channel_id IN (
    SELECT channel_id FROM alerts.channel_test_leases WHERE expires_at <= now() FOR UPDATE SKIP LOCKED)`;
const SELECT_TEAM_LEASES = `
  SELECT channel_id, greatest(1, ceil(extract(epoch FROM expires_at - now())))::int AS seconds_left
    FROM alerts.channel_test_leases WHERE team_id = ? AND expires_at > now()`;
/** A row already there is an expired lease (the team's lock keeps a live one from being missed). */
const INSERT_LEASE = `
  INSERT INTO alerts.channel_test_leases (channel_id, team_id, lease_id, expires_at)
  VALUES (?, ?, ?, now() + ? * interval '1 millisecond')
  ON CONFLICT (channel_id) DO UPDATE
    SET team_id = excluded.team_id, lease_id = excluded.lease_id, expires_at = excluded.expires_at`;
const DELETE_LEASE = "DELETE FROM alerts.channel_test_leases WHERE channel_id = ? AND lease_id = ?";

/**
 * How long a lease lasts: longer than the longest test — an incident tool gets the test and then
 * its resolve, each signed then sent, each bounded by the attempt timeout — with 5 s to spare.
 * The gateway's deadline for the call allows for the same 4 attempt timeouts.
 */
export const channelTestLeaseMs = (attemptTimeoutMs: number): number => 4 * attemptTimeoutMs + 5_000;

export type ChannelTestLease = { channelId: string; leaseId: string };

/**
 * The bound on channel tests in flight, across replicas (the leases are rows of
 * alerts.channel_test_leases): a test takes its channel's lease before it sends and gives it back
 * when it ends. A lease lasts `leaseMs` (longer than any test), so a crashed replica's runs out.
 */
export class ChannelTestLeases {
  readonly #orm: Orm;
  readonly #leaseMs: number;

  constructor(orm: Orm, options: { leaseMs: number }) {
    this.#orm = orm;
    this.#leaseMs = options.leaseMs;
  }

  /** The channel's lease, or a TooManyError (429) while its own test or 3 of its team's are in flight. */
  async take(channel: { id: string; teamId: string }): Promise<ChannelTestLease> {
    const leaseId = randomUUID();
    await this.#orm.em.fork().transactional(async (em) => {
      await em.execute(LOCK_TEAM_TESTS, [`alerts:channel-tests:${channel.teamId}`]);
      await em.execute(DELETE_EXPIRED);
      const leases = await em.execute<{ channel_id: string; seconds_left: number }[]>(SELECT_TEAM_LEASES, [
        channel.teamId,
      ]);
      const own = leases.find((lease) => lease.channel_id === channel.id);
      // Retry-After: when the lease in the way runs out at the latest (its test usually ends sooner).
      if (own) throw alertsErrors.channelTestInProgress(own.seconds_left);
      if (leases.length >= CHANNEL_TESTS_PER_TEAM) {
        throw alertsErrors.channelTestInProgress(Math.min(...leases.map((lease) => lease.seconds_left)));
      }
      await em.execute(INSERT_LEASE, [channel.id, channel.teamId, leaseId, this.#leaseMs]);
    });
    return { channelId: channel.id, leaseId };
  }

  /** Gives the lease back (only this one: an expired lease may have been taken again meanwhile). */
  async release(lease: ChannelTestLease): Promise<void> {
    await this.#orm.em.fork().execute(DELETE_LEASE, [lease.channelId, lease.leaseId]);
  }
}
