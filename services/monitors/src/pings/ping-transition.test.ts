import { describe, expect, it } from "vitest";
import { type MonitorState, pingTransition } from "./ping-transition.ts";

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
      nextDueAt: at(70),
      incident: null,
    });
  });

  it("a down ping raises at once, from any state but paused, and is not due", () => {
    for (const status of ["idle", "up"] as const) {
      expect(pingTransition(monitor({ status }), { status: "down", reason: "disk", receivedAt: at(1) })).toEqual({
        apply: true,
        status: "down",
        nextDueAt: null,
        incident: "raise",
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
});
