import type { MonitorView } from "./monitor-row.ts";

const MAX_ENTRIES = 50_000;

/**
 * The last state of each monitor this process read or wrote. While the
 * database is away it answers ResolveMonitor and gives spooled pings their
 * answer (DESIGN §5: "answered 200 from the last known monitor state").
 */
export class LastKnownMonitors {
  readonly #byId = new Map<string, MonitorView>();
  readonly #idByPingUrl = new Map<string, string>();

  remember(monitor: MonitorView): MonitorView {
    const known = this.#byId.get(monitor.id);
    // The hot path remembers on every ping; most pings leave the answer-relevant state as it was.
    if (
      known &&
      known.status === monitor.status &&
      known.monitoringActive === monitor.monitoringActive &&
      known.teamId === monitor.teamId &&
      known.name === monitor.name
    ) {
      return monitor;
    }
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
