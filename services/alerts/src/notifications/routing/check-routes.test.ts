import { describe, expect, it } from "vitest";
import { checkRoutes } from "./check-routes.ts";

const team = new Set(["ch_a", "ch_b"]);

describe("checkRoutes", () => {
  it("accepts routes of known severities to the team's channels, dropping repeats", () => {
    expect(checkRoutes([{ severities: ["sev0", "sev1", "sev0"], channelIds: ["ch_a", "ch_a", "ch_b"] }], team)).toEqual(
      { routes: [{ severities: ["sev0", "sev1"], channelIds: ["ch_a", "ch_b"] }] },
    );
  });

  it("accepts an empty policy (nobody is notified)", () => {
    expect(checkRoutes([], team)).toEqual({ routes: [] });
  });

  it("names every problem with its field", () => {
    const result = checkRoutes(
      [
        { severities: [], channelIds: ["ch_a"] },
        { severities: ["sev9"], channelIds: ["ch_other"] },
        { severities: ["sev1"], channelIds: [] },
      ],
      team,
    );
    expect(result).toEqual({
      errors: [
        { field: "routes[0].severities", message: "severities must not be empty." },
        { field: "routes[1].severities", message: "severities must be among sev0, sev1, sev2, sev3, sev4." },
        { field: "routes[1].channelIds[0]", message: "No channel of this team has that id." },
        { field: "routes[2].channelIds", message: "channelIds must not be empty." },
      ],
    });
  });

  it("limits the number of routes", () => {
    const routes = Array.from({ length: 51 }, () => ({ severities: ["sev0"], channelIds: ["ch_a"] }));
    expect(checkRoutes(routes, team)).toMatchObject({ errors: [{ field: "routes" }] });
  });
});
