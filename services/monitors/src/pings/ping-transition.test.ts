import { describe, expect, it } from "vitest";
import { type MonitorState, type PingFacts, pingTransition } from "./ping-transition.ts";

const at = (seconds: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, seconds));
const monitor = (overrides: Partial<MonitorState> = {}): MonitorState => ({
  status: "idle",
  lastPingAt: null,
  lastReason: null,
  incidentOpen: false,
  intervalSeconds: 60,
  graceSeconds: 10,
  ...overrides,
});

describe("pingTransition", () => {
  it("an up ping on an idle monitor: up, due at interval + grace, no incident", () => {
    expect(pingTransition(monitor(), { status: "up", reason: null, receivedAt: at(0) })).toEqual({
      apply: true,
      status: "up",
      reason: null,
      nextDueAt: at(70),
      incident: null,
      runStartedAt: null,
      durationMs: null,
    });
  });

  it("a down ping raises at once, from any state but paused, and is not due", () => {
    for (const status of ["idle", "up"] as const) {
      expect(pingTransition(monitor({ status }), { status: "down", reason: "disk", receivedAt: at(1) })).toEqual({
        apply: true,
        status: "down",
        reason: "disk",
        nextDueAt: null,
        incident: "raise",
        runStartedAt: null,
        durationMs: null,
      });
    }
  });

  it("down after down: nothing new for the same reason, a raise for a different one", () => {
    const down = monitor({ status: "down", lastReason: "disk", incidentOpen: true, lastPingAt: at(0) });
    expect(pingTransition(down, { status: "down", reason: "disk", receivedAt: at(1) })).toMatchObject({
      apply: true,
      incident: null,
    });
    expect(pingTransition(down, { status: "down", reason: "oom", receivedAt: at(1) })).toMatchObject({
      incident: "raise",
    });
    const noReason = monitor({ status: "down", lastReason: null, lastPingAt: at(0) });
    expect(pingTransition(noReason, { status: "down", reason: null, receivedAt: at(1) })).toMatchObject({
      incident: null,
    });
  });

  it("up after down resolves the open incident; up without one resolves nothing", () => {
    const down = monitor({ status: "down", lastReason: "disk", incidentOpen: true, lastPingAt: at(0) });
    expect(pingTransition(down, { status: "up", reason: null, receivedAt: at(5) })).toMatchObject({
      apply: true,
      status: "up",
      incident: "resolve",
    });
    expect(pingTransition(monitor({ status: "up" }), { status: "up", reason: null, receivedAt: at(5) })).toMatchObject({
      incident: null,
    });
  });

  it("a paused monitor and a ping older than the last one change nothing", () => {
    expect(pingTransition(monitor({ status: "paused" }), { status: "down", reason: null, receivedAt: at(1) })).toEqual({
      apply: false,
    });
    expect(
      pingTransition(monitor({ status: "up", lastPingAt: at(10) }), {
        status: "down",
        reason: null,
        receivedAt: at(9),
      }),
    ).toEqual({ apply: false });
  });

  it("a start ping opens a run: status kept, due at start + grace (or the maximum, if shorter)", () => {
    expect(pingTransition(monitor({ status: "up" }), { status: "start", reason: null, receivedAt: at(0) })).toEqual({
      apply: true,
      status: "up",
      reason: null,
      nextDueAt: at(10),
      incident: null,
      runStartedAt: at(0),
      durationMs: null,
    });
    const capped = monitor({ maxDurationSeconds: 4 });
    expect(pingTransition(capped, { status: "start", reason: null, receivedAt: at(0) })).toMatchObject({
      status: "idle",
      nextDueAt: at(4),
    });
  });

  it("the next up or down ping closes the run with its duration", () => {
    const running = monitor({ status: "up", runStartedAt: at(0), lastPingAt: at(0) });
    expect(pingTransition(running, { status: "up", reason: null, receivedAt: at(7) })).toMatchObject({
      status: "up",
      runStartedAt: null,
      durationMs: 7000,
      nextDueAt: at(77),
    });
    expect(pingTransition(running, { status: "down", reason: "exit 1", receivedAt: at(3) })).toMatchObject({
      status: "down",
      reason: "exit 1",
      runStartedAt: null,
      durationMs: 3000,
      incident: "raise",
    });
  });

  it("an up ping that closes a run longer than the maximum is down, with the slow run as reason", () => {
    const slow = monitor({ status: "up", runStartedAt: at(0), lastPingAt: at(0), maxDurationSeconds: 5 });
    expect(pingTransition(slow, { status: "up", reason: null, receivedAt: at(6) })).toMatchObject({
      status: "down",
      reason: "run took 6 s, longer than the 5 s maximum",
      nextDueAt: null,
      incident: "raise",
      durationMs: 6000,
    });
    expect(pingTransition(slow, { status: "up", reason: null, receivedAt: at(5) })).toMatchObject({ status: "up" });
  });

  it("a scheduled monitor is due at the schedule's next run plus the grace", () => {
    const scheduled = monitor({ schedule: { expression: "30 * * * *", timezone: "UTC" }, graceSeconds: 60 });
    expect(
      pingTransition(scheduled, { status: "up", reason: null, receivedAt: new Date("2026-01-05T10:31:00Z") }),
    ).toMatchObject({ nextDueAt: new Date("2026-01-05T11:31:00Z") });
  });

  it("a paused monitor ignores every kind of ping, an open incident included", () => {
    const paused = monitor({ status: "paused", incidentOpen: true, lastReason: "disk" });
    for (const status of ["up", "down", "start"] as const) {
      expect(pingTransition(paused, { status, reason: "oom", receivedAt: at(1) })).toEqual({ apply: false });
    }
  });

  it("a ping received at the same instant as the last one applies: only an older one is history", () => {
    const up = monitor({ status: "up", lastPingAt: at(10) });
    expect(pingTransition(up, { status: "down", reason: "disk", receivedAt: at(10) })).toMatchObject({
      apply: true,
      status: "down",
      incident: "raise",
    });
  });

  it("a down ping without a reason raises on an idle monitor, and after a down with a reason", () => {
    expect(pingTransition(monitor(), { status: "down", reason: null, receivedAt: at(1) })).toMatchObject({
      status: "down",
      reason: null,
      incident: "raise",
    });
    const down = monitor({ status: "down", lastReason: "disk", incidentOpen: true, lastPingAt: at(0) });
    expect(pingTransition(down, { status: "down", reason: null, receivedAt: at(1) })).toMatchObject({
      incident: "raise",
    });
  });

  it("up after down with no open incident is up and resolves nothing", () => {
    const down = monitor({ status: "down", lastReason: "disk", incidentOpen: false, lastPingAt: at(0) });
    expect(pingTransition(down, { status: "up", reason: null, receivedAt: at(1) })).toEqual({
      apply: true,
      status: "up",
      reason: null,
      nextDueAt: at(71),
      incident: null,
      runStartedAt: null,
      durationMs: null,
    });
  });

  it("a start ping on a down monitor keeps it down, with its reason, and raises nothing", () => {
    const down = monitor({ status: "down", lastReason: "disk", incidentOpen: true, lastPingAt: at(0) });
    expect(pingTransition(down, { status: "start", reason: null, receivedAt: at(1) })).toEqual({
      apply: true,
      status: "down",
      reason: "disk",
      nextDueAt: at(11),
      incident: null,
      runStartedAt: at(1),
      durationMs: null,
    });
  });

  it("a second start ping while a run is open starts the run again, closing nothing", () => {
    const running = monitor({ status: "up", runStartedAt: at(0), lastPingAt: at(0), maxDurationSeconds: 30 });
    expect(pingTransition(running, { status: "start", reason: null, receivedAt: at(5) })).toEqual({
      apply: true,
      status: "up",
      reason: null,
      nextDueAt: at(15),
      incident: null,
      runStartedAt: at(5),
      durationMs: null,
    });
  });

  it("a start ping leaves an open incident open: it neither resolves nor raises", () => {
    const open = monitor({ status: "up", incidentOpen: true, lastPingAt: at(0) });
    expect(pingTransition(open, { status: "start", reason: null, receivedAt: at(1) })).toMatchObject({
      status: "up",
      incident: null,
      runStartedAt: at(1),
    });
  });

  it("a down ping that closes a slow run keeps its own reason; without a maximum no run is slow", () => {
    const slow = monitor({ status: "up", runStartedAt: at(0), lastPingAt: at(0), maxDurationSeconds: 5 });
    expect(pingTransition(slow, { status: "down", reason: "exit 1", receivedAt: at(9) })).toMatchObject({
      status: "down",
      reason: "exit 1",
      incident: "raise",
      durationMs: 9000,
    });
    const unbounded = monitor({ status: "up", runStartedAt: at(0), lastPingAt: at(0), maxDurationSeconds: null });
    expect(pingTransition(unbounded, { status: "up", reason: null, receivedAt: at(59) })).toMatchObject({
      status: "up",
      reason: null,
      incident: null,
      durationMs: 59_000,
      nextDueAt: at(129),
    });
  });

  it("a slow run closed on a monitor down for another reason raises; an up ping without a run is never slow", () => {
    const down = monitor({
      status: "down",
      lastReason: "disk",
      incidentOpen: true,
      runStartedAt: at(0),
      lastPingAt: at(0),
      maxDurationSeconds: 5,
    });
    expect(pingTransition(down, { status: "up", reason: null, receivedAt: at(8) })).toMatchObject({
      status: "down",
      reason: "run took 8 s, longer than the 5 s maximum",
      incident: "raise",
    });
    const noRun = monitor({ status: "down", lastReason: "disk", incidentOpen: true, maxDurationSeconds: 5 });
    expect(pingTransition(noRun, { status: "up", reason: null, receivedAt: at(8) })).toMatchObject({
      status: "up",
      incident: "resolve",
      durationMs: null,
    });
  });

  it("an up ping resolves an open incident whatever the status said (an idle or up monitor too)", () => {
    for (const status of ["idle", "up"] as const) {
      expect(
        pingTransition(monitor({ status, incidentOpen: true }), { status: "up", reason: null, receivedAt: at(1) }),
      ).toMatchObject({ status: "up", incident: "resolve" });
    }
  });

  // The monitor state the next ping of a batch sees, as applyPingBatch carries it from one ping to the next.
  const after = (state: MonitorState, ping: PingFacts): MonitorState => {
    const t = pingTransition(state, ping);
    if (!t.apply) return state;
    return {
      ...state,
      status: t.status,
      lastPingAt: ping.receivedAt,
      lastReason: t.reason,
      incidentOpen: t.incident === "raise" ? true : t.incident === "resolve" ? false : state.incidentOpen,
      runStartedAt: t.runStartedAt,
    };
  };

  it("two pings of one monitor in a batch: the second sees the state the first left", () => {
    const first: PingFacts = { status: "down", reason: "disk", receivedAt: at(1) };
    const second: PingFacts = { status: "down", reason: "disk", receivedAt: at(2) };
    expect(pingTransition(monitor({ status: "up" }), first)).toMatchObject({ incident: "raise" });
    expect(pingTransition(after(monitor({ status: "up" }), first), second)).toMatchObject({
      apply: true,
      incident: null,
    });
    const recovered = { status: "up", reason: null, receivedAt: at(3) } as const;
    expect(pingTransition(after(after(monitor({ status: "up" }), first), second), recovered)).toMatchObject({
      status: "up",
      incident: "resolve",
    });
    const run = after(monitor({ status: "up" }), { status: "start", reason: null, receivedAt: at(0) });
    expect(pingTransition(run, { status: "up", reason: null, receivedAt: at(4) })).toMatchObject({
      durationMs: 4000,
      runStartedAt: null,
    });
  });

  it("two pings of one monitor in a batch out of order: the older one, second, is history only", () => {
    const newer: PingFacts = { status: "up", reason: null, receivedAt: at(5) };
    const older: PingFacts = { status: "down", reason: "disk", receivedAt: at(4) };
    const state = after(monitor(), newer);
    expect(state).toMatchObject({ status: "up", lastPingAt: at(5) });
    expect(pingTransition(state, older)).toEqual({ apply: false });
  });
});
