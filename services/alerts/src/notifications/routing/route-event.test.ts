import { describe, expect, it } from "vitest";
import { routeEvent } from "./route-event.ts";

const channels = [{ id: "ch_pager" }, { id: "ch_slack" }, { id: "ch_audit" }];

describe("routeEvent", () => {
  it("sends to every channel when the team has no policy", () => {
    expect(routeEvent("sev3", channels, null)).toEqual(["ch_pager", "ch_slack", "ch_audit"]);
  });

  it("sends to the channels of the routes that list the severity", () => {
    const routes = [
      { severities: ["sev0" as const, "sev1" as const], channelIds: ["ch_pager", "ch_slack"] },
      { severities: ["sev3" as const, "sev4" as const], channelIds: ["ch_slack"] },
    ];
    expect(routeEvent("sev0", channels, routes)).toEqual(["ch_pager", "ch_slack"]);
    expect(routeEvent("sev4", channels, routes)).toEqual(["ch_slack"]);
  });

  it("sends a channel listed by two matching routes once", () => {
    const routes = [
      { severities: ["sev1" as const], channelIds: ["ch_slack"] },
      { severities: ["sev1" as const, "sev2" as const], channelIds: ["ch_slack", "ch_audit"] },
    ];
    expect(routeEvent("sev1", channels, routes)).toEqual(["ch_slack", "ch_audit"]);
  });

  it("notifies nobody for a severity no route lists, or with an empty policy", () => {
    expect(routeEvent("sev2", channels, [{ severities: ["sev0"], channelIds: ["ch_pager"] }])).toEqual([]);
    expect(routeEvent("sev0", channels, [])).toEqual([]);
  });

  it("skips routed channels that are gone or disabled (not in the list)", () => {
    expect(
      routeEvent("sev0", [{ id: "ch_slack" }], [{ severities: ["sev0"], channelIds: ["ch_pager", "ch_slack"] }]),
    ).toEqual(["ch_slack"]);
  });
});
