import { randomUUID } from "node:crypto";
import { type EntityManager, type Orm, type PgPool, run, statement } from "@pulsegate/db";
import { newUrlToken } from "@pulsegate/text";
import { isTransientError } from "@pulsegate/transient-error";
import { monitorsErrors } from "../errors.ts";
import { readHeartbeatUsage } from "../pings/read-heartbeat-usage.ts";
import type { LastKnownMonitors } from "./last-known-monitors.ts";
import type { PingStatus } from "./monitor.entity.ts";
import { type MonitorRow, type MonitorView, monitorFromRow, toDate } from "./monitor-row.ts";
import { checkMonitorSettings, type MonitorSettingsInput } from "./monitor-settings.ts";

const RESOLVE_MONITORS = statement(
  "monitors_resolve_by_ping_url",
  "SELECT * FROM monitors.monitors WHERE ping_url = ANY($1::text[])",
);

const MAX_PAGE = 200;
const DEFAULT_PAGE = 50;

export type PingView = {
  id: string;
  monitorId: string;
  status: PingStatus;
  /** For the ping that closed a run: how long the run took. */
  durationMs: number | null;
  reason: string | null;
  metadata: unknown;
  method: string;
  receivedAt: Date;
};

/** Creating, reading, pausing and resuming monitors, and reading their pings. */
export class MonitorService {
  readonly #orm: Orm;
  readonly #pool: PgPool;
  readonly #lastKnown: LastKnownMonitors;
  readonly #now: () => Date;

  /** `pool`: the hot path's plain pg pool (look-ups by ping URL); the ORM for the rest. */
  constructor(orm: Orm, pool: PgPool, lastKnown: LastKnownMonitors, now: () => Date = () => new Date()) {
    this.#orm = orm;
    this.#pool = pool;
    this.#lastKnown = lastKnown;
    this.#now = now;
  }

  /** Created idle, not monitoring (DESIGN §5). */
  async create(teamId: string, input: MonitorSettingsInput): Promise<MonitorView> {
    if (!teamId) throw monitorsErrors.invalid([{ field: "teamId", message: "teamId is required." }]);
    const { settings, errors } = checkMonitorSettings(input);
    if (errors.length > 0) throw monitorsErrors.invalid(errors);
    const now = this.#now();
    const [row] = await this.#em().execute<MonitorRow[]>(
      `INSERT INTO monitors.monitors (id, team_id, ping_url, name, status, monitoring_active, interval_seconds,
                                      grace_seconds, severity, reopen_window_seconds, schedule, timezone,
                                      max_duration_seconds, badge_token, repeat_interval_seconds, require_timestamp,
                                      created_at, updated_at)
       VALUES (?, ?, ?, ?, 'idle', false, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
      [
        `mon_${randomUUID().replaceAll("-", "")}`,
        teamId,
        newUrlToken(),
        settings.name,
        settings.intervalSeconds,
        settings.graceSeconds,
        settings.severity,
        settings.reopenWindowSeconds,
        settings.schedule?.expression ?? null,
        settings.schedule?.timezone ?? null,
        settings.maxDurationSeconds,
        newUrlToken(),
        settings.repeatIntervalSeconds,
        settings.requireTimestamp,
        now,
        now,
      ],
    );
    return this.#lastKnown.remember(monitorFromRow(row as MonitorRow));
  }

  async get(id: string): Promise<MonitorView> {
    const [row] = await this.#em().execute<MonitorRow[]>("SELECT * FROM monitors.monitors WHERE id = ?", [id]);
    if (!row) throw monitorsErrors.monitorNotFound();
    return this.#lastKnown.remember(monitorFromRow(row));
  }

  async list(teamId: string): Promise<MonitorView[]> {
    const rows = await this.#em().execute<MonitorRow[]>(
      "SELECT * FROM monitors.monitors WHERE team_id = ? ORDER BY created_at, id",
      [teamId],
    );
    return rows.map(monitorFromRow);
  }

  /**
   * By the token of the ping URL; null when unknown. While the database is
   * away the last known monitor answers, so signed pings can still be
   * authenticated and spooled.
   */
  async resolve(pingUrl: string): Promise<MonitorView | null> {
    try {
      const [row] = await this.#em().execute<MonitorRow[]>("SELECT * FROM monitors.monitors WHERE ping_url = ?", [
        pingUrl,
      ]);
      return row ? this.#lastKnown.remember(monitorFromRow(row)) : null;
    } catch (error) {
      const known = this.#lastKnown.byPingUrl(pingUrl);
      if (known && isTransientError(error)) return known;
      throw error;
    }
  }

  /**
   * Many ping URLs at once (the gateway's cache misses of one moment), one
   * prepared statement; null for each unknown one. While the database is away
   * the last known monitors answer.
   */
  async resolveMany(pingUrls: string[]): Promise<(MonitorView | null)[]> {
    try {
      const rows = await run<MonitorRow>(this.#pool, RESOLVE_MONITORS, [pingUrls]);
      const byUrl = new Map(rows.map((row) => [row.ping_url, this.#lastKnown.remember(monitorFromRow(row))]));
      return pingUrls.map((pingUrl) => byUrl.get(pingUrl) ?? null);
    } catch (error) {
      if (!isTransientError(error)) throw error;
      const known = pingUrls.map((pingUrl) => this.#lastKnown.byPingUrl(pingUrl) ?? null);
      if (known.every((monitor) => monitor === null)) throw error;
      return known;
    }
  }

  /** What the team has used of its heartbeat quota this UTC month. */
  heartbeatUsage(teamId: string): Promise<{ month: string; used: number }> {
    return readHeartbeatUsage(this.#pool, teamId, this.#now());
  }

  /** By the token of its public status badge; null when unknown. */
  async resolveBadge(badgeToken: string): Promise<MonitorView | null> {
    const [row] = await this.#em().execute<MonitorRow[]>("SELECT * FROM monitors.monitors WHERE badge_token = ?", [
      badgeToken,
    ]);
    return row ? monitorFromRow(row) : null;
  }

  /** Paused: not monitoring, pings answered 404, never swept. Pausing twice is harmless. */
  async pause(id: string): Promise<MonitorView> {
    const [row] = await this.#em().execute<MonitorRow[]>(
      `UPDATE monitors.monitors
          SET status = 'paused', monitoring_active = false, next_due_at = NULL, run_started_at = NULL, updated_at = ?
        WHERE id = ? RETURNING *`,
      [this.#now(), id],
    );
    if (!row) throw monitorsErrors.monitorNotFound();
    return this.#lastKnown.remember(monitorFromRow(row));
  }

  /** A paused monitor goes back to idle, monitoring again from its next ping; others are left as they are. */
  async resume(id: string): Promise<MonitorView> {
    const [row] = await this.#em().execute<MonitorRow[]>(
      `UPDATE monitors.monitors
          SET status = 'idle', monitoring_active = false, next_due_at = NULL, run_started_at = NULL, updated_at = ?
        WHERE id = ? AND status = 'paused' RETURNING *`,
      [this.#now(), id],
    );
    return row ? this.#lastKnown.remember(monitorFromRow(row)) : this.get(id);
  }

  /** Newest first; the cursor is the id of the last ping of the previous page. */
  async pings(monitorId: string, cursor: string, limit: number): Promise<{ pings: PingView[]; nextCursor: string }> {
    await this.get(monitorId);
    const size = Number.isInteger(limit) && limit > 0 ? Math.min(limit, MAX_PAGE) : DEFAULT_PAGE;
    if (cursor && !/^[1-9][0-9]{0,18}$/.test(cursor)) throw monitorsErrors.invalidCursor();
    const rows = await this.#em().execute<Record<string, unknown>[]>(
      `SELECT id, monitor_id, status, reason, metadata, method, received_at, duration_ms FROM monitors.pings
        WHERE monitor_id = ? AND (?::bigint IS NULL OR id < ?::bigint)
        ORDER BY id DESC LIMIT ?`,
      [monitorId, cursor || null, cursor || null, size + 1],
    );
    const page = rows.slice(0, size);
    return {
      pings: page.map((row) => ({
        id: String(row.id),
        monitorId: row.monitor_id as string,
        status: row.status as PingStatus,
        durationMs: row.duration_ms === null || row.duration_ms === undefined ? null : Number(row.duration_ms),
        reason: (row.reason as string | null) ?? null,
        metadata: row.metadata ?? null,
        method: row.method as string,
        receivedAt: toDate(row.received_at as Date | string),
      })),
      nextCursor: rows.length > size ? String(page.at(-1)?.id ?? "") : "",
    };
  }

  #em(): EntityManager {
    return this.#orm.em.fork();
  }
}
