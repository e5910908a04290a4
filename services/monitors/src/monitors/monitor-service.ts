import { randomUUID } from "node:crypto";
import { decodeIdCursor, encodeIdCursor, pageSize } from "@pulsegate/contract/page-cursor";
import { newUrlToken } from "@pulsegate/contract/text";
import { type EntityManager, type Orm, onUniqueViolation, type PgPool } from "@pulsegate/db";
import { isTransientError } from "@pulsegate/runtime/transient-error";
import { monitorsErrors } from "../errors.ts";
import { readHeartbeatUsage } from "../pings/read-heartbeat-usage.ts";
import { deleteMonitor, insertTeamDeletion } from "./delete-monitor.ts";
import { insertMonitor } from "./insert-monitor.ts";
import type { LastKnownMonitors } from "./last-known-monitors.ts";
import { dueAfterChange, type MonitorPatch, patchedSettings } from "./monitor-patch.ts";
import { type MonitorView, monitorFromRow } from "./monitor-row.ts";
import { checkMonitorSettings, type MonitorSettingsInput } from "./monitor-settings.ts";
import { selectMonitor, selectTeamMonitors } from "./select-monitor.ts";
import { selectMonitorsByPingUrl } from "./select-monitors-by-ping-url.ts";
import { type PingView, selectPingPage } from "./select-ping-page.ts";
import { updateMonitorPaused } from "./update-monitor-paused.ts";
import { lockMonitor, updateMonitorSettings } from "./update-monitor-settings.ts";

/** A team's live monitors have unique names (docs/decisions.md, "Names"); the loser of a race is a conflict. */
const nameTaken = onUniqueViolation("monitors_team_name_key", () => monitorsErrors.nameTaken("monitor"));

/** Creating, reading, changing, pausing, resuming and deleting monitors, and reading their pings. */
export class MonitorService {
  readonly #orm: Orm;
  readonly #pool: PgPool;
  readonly #lastKnown: LastKnownMonitors;
  readonly #now: () => Date;
  readonly #onDeleted: () => void;

  /**
   * `pool`: the hot path's plain pg pool (look-ups by ping URL); the ORM for the rest. `onDeleted`:
   * something was deleted, for the purge to start (purge-deleted.ts).
   */
  constructor(
    orm: Orm,
    pool: PgPool,
    lastKnown: LastKnownMonitors,
    options: { now?: () => Date; onDeleted?: () => void } = {},
  ) {
    this.#orm = orm;
    this.#pool = pool;
    this.#lastKnown = lastKnown;
    this.#now = options.now ?? (() => new Date());
    this.#onDeleted = options.onDeleted ?? (() => undefined);
  }

  /** Created idle, not monitoring (DESIGN §5). */
  async create(teamId: string, input: MonitorSettingsInput): Promise<MonitorView> {
    if (!teamId) throw monitorsErrors.invalid([{ field: "teamId", message: "teamId is required." }]);
    const { settings, errors } = checkMonitorSettings(input);
    if (errors.length > 0) throw monitorsErrors.invalid(errors);
    const row = await insertMonitor(this.#em(), {
      id: `mon_${randomUUID().replaceAll("-", "")}`,
      teamId,
      pingUrl: newUrlToken(),
      badgeToken: newUrlToken(),
      settings,
      at: this.#now(),
    }).catch(nameTaken);
    return this.#lastKnown.remember(monitorFromRow(row));
  }

  /**
   * Changes the settings a patch gives, checked as create checks them, with the due time worked out
   * again (monitor-patch.ts); the row is locked meanwhile, so a ping batch applies before or after.
   */
  async update(id: string, patch: MonitorPatch): Promise<MonitorView> {
    const row = await this.#orm.em
      .fork()
      .transactional(async (tx) => {
        const locked = await lockMonitor(tx, id);
        if (!locked) throw monitorsErrors.monitorNotFound();
        const current = monitorFromRow(locked);
        const { settings, errors } = patchedSettings(current, patch);
        if (errors.length > 0) throw monitorsErrors.invalid(errors);
        return updateMonitorSettings(tx, id, {
          settings,
          nextDueAt: dueAfterChange(current, settings),
          at: this.#now(),
        });
      })
      .catch(nameTaken);
    // Remembered afresh: what changed (requireTimestamp…) is not what `remember` compares.
    this.#lastKnown.forget(row.ping_url);
    return this.#lastKnown.remember(monitorFromRow(row));
  }

  /**
   * Unknown to every look-up at once, no longer watched; its pings and the row go in the background.
   * Its incident alerts stay with alerts, as every alert does. The monitor as it was.
   */
  async delete(id: string): Promise<MonitorView> {
    const row = await deleteMonitor(this.#em(), id, this.#now());
    if (!row) throw monitorsErrors.monitorNotFound();
    this.#lastKnown.forget(row.ping_url);
    this.#onDeleted();
    return monitorFromRow(row);
  }

  /** A team was deleted: its monitors are unknown from now on, and purged in the background. Idempotent. */
  async deleteTeamData(teamId: string): Promise<void> {
    if (!teamId) throw monitorsErrors.invalid([{ field: "teamId", message: "teamId is required." }]);
    await insertTeamDeletion(this.#em(), teamId, this.#now());
    this.#lastKnown.forgetTeam(teamId);
    this.#onDeleted();
  }

  async get(id: string): Promise<MonitorView> {
    const row = await selectMonitor(this.#em(), "id", id);
    if (!row) throw monitorsErrors.monitorNotFound();
    return this.#lastKnown.remember(monitorFromRow(row));
  }

  async list(teamId: string): Promise<MonitorView[]> {
    return (await selectTeamMonitors(this.#em(), teamId)).map(monitorFromRow);
  }

  /**
   * By the token of the ping URL; null when unknown. While the database is
   * away the last known monitor answers, so signed pings can still be
   * authenticated and spooled.
   */
  async lookup(pingUrl: string): Promise<MonitorView | null> {
    try {
      const row = await selectMonitor(this.#em(), "pingUrl", pingUrl);
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
  async lookupMany(pingUrls: string[]): Promise<(MonitorView | null)[]> {
    try {
      const rows = await selectMonitorsByPingUrl(this.#pool, pingUrls);
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
  async lookupBadge(badgeToken: string): Promise<MonitorView | null> {
    const row = await selectMonitor(this.#em(), "badgeToken", badgeToken);
    return row ? monitorFromRow(row) : null;
  }

  /** Paused: not monitoring, pings answered 404, never swept. Pausing twice is harmless. */
  async pause(id: string): Promise<MonitorView> {
    const row = await updateMonitorPaused(this.#em(), "pause", id, this.#now());
    if (!row) throw monitorsErrors.monitorNotFound();
    return this.#lastKnown.remember(monitorFromRow(row));
  }

  /** A paused monitor goes back to idle, monitoring again from its next ping; others are left as they are. */
  async resume(id: string): Promise<MonitorView> {
    const row = await updateMonitorPaused(this.#em(), "resume", id, this.#now());
    return row ? this.#lastKnown.remember(monitorFromRow(row)) : this.get(id);
  }

  /** Newest first; the cursor is the id of the last ping of the previous page. */
  async pings(monitorId: string, cursor: string, limit: number): Promise<{ pings: PingView[]; nextCursor: string }> {
    await this.get(monitorId);
    const size = pageSize(limit);
    const after = cursor ? decodeIdCursor(cursor) : null;
    if (cursor && !after) throw monitorsErrors.invalidCursor();
    const rows = await selectPingPage(this.#em(), { monitorId, after, limit: size + 1 });
    const page = rows.slice(0, size);
    const last = page.at(-1);
    return {
      pings: page,
      nextCursor: rows.length > size && last ? encodeIdCursor(last.id) : "",
    };
  }

  #em(): EntityManager {
    return this.#orm.em.fork();
  }
}
