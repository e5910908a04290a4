import type { MonitorView } from "./monitor-row.ts";

const MAX_ENTRIES = 50_000;

/**
 * The last state of each monitor this process read or wrote. While the
 * database is away it answers LookupMonitor and gives spooled pings their
 * answer (DESIGN §5: "answered 200 from the last known monitor state").
 */
export class LastKnownMonitors {
  readonly #byId = new Map<string, MonitorView>();
  readonly #idByPingUrl = new Map<string, string>();

  /**
   * Keeps `monitor` when what an answer shows of it changed (status, activity, team, name): the hot
   * path remembers on every ping, and most pings leave that as it was, so the rest of a kept view
   * (its last ping, an open run) may be older than the database's.
   */
  remember(monitor: MonitorView): MonitorView {
    const known = this.#byId.get(monitor.id);
    if (
      known &&
      known.status === monitor.status &&
      known.monitoringActive === monitor.monitoringActive &&
      known.teamId === monitor.teamId &&
      known.name === monitor.name
    ) {
      return monitor;
    }
    return this.replace(monitor);
  }

  /** Keeps `monitor` whole: a spooled ping's prediction, which the next spooled ping of it builds on. */
  replace(monitor: MonitorView): MonitorView {
    this.#byId.delete(monitor.id);
    if (this.#byId.size >= MAX_ENTRIES) {
      const oldest = this.#byId.values().next();
      if (!oldest.done) {
        this.#byId.delete(oldest.value.id);
        this.#idByPingUrl.delete(oldest.value.pingUrl);
      }
    }
    this.#byId.set(monitor.id, monitor);
    this.#idByPingUrl.set(monitor.pingUrl, monitor.id);
    return monitor;
  }

  /** A deleted monitor: no longer answered, even while the database is away. */
  forget(pingUrl: string): void {
    const id = this.#idByPingUrl.get(pingUrl);
    this.#idByPingUrl.delete(pingUrl);
    if (id !== undefined) this.#byId.delete(id);
  }

  /** A deleted team's monitors. */
  forgetTeam(teamId: string): void {
    for (const monitor of [...this.#byId.values()]) if (monitor.teamId === teamId) this.forget(monitor.pingUrl);
  }

  byId(id: string): MonitorView | undefined {
    return this.#byId.get(id);
  }

  byPingUrl(pingUrl: string): MonitorView | undefined {
    const id = this.#idByPingUrl.get(pingUrl);
    return id === undefined ? undefined : this.#byId.get(id);
  }
}
