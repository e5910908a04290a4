import { describe, expect, it } from "vitest";
import { incidentGroupKey, incidentMetadata, incidentText, MISSED_HEARTBEAT } from "./incident-text.ts";

const monitor = { id: "mon_1", name: "Nightly backup", intervalSeconds: 300, graceSeconds: 60 };

describe("incident text", () => {
  it("puts the reason in the title and the description", () => {
    expect(incidentText(monitor, "disk full", null)).toEqual({
      title: 'Monitor "Nightly backup" is down: disk full',
      description: "A ping reported the monitor down: disk full",
    });
    expect(incidentText(monitor, null, null).title).toBe('Monitor "Nightly backup" is down');
  });

  it("explains a missed heartbeat", () => {
    const text = incidentText(monitor, MISSED_HEARTBEAT, new Date("2025-01-01T00:00:00Z"));
    expect(text.title).toBe('Monitor "Nightly backup" is down: missed heartbeat');
    expect(text.description).toContain("300 s interval plus 60 s grace");
    expect(text.description).toContain("2025-01-01T00:00:00.000Z");
  });

  it("keeps the title within 200 code points", () => {
    const title = incidentText({ ...monitor, name: "😀".repeat(200) }, "x", null).title;
    expect([...title].length).toBe(200);
  });

  it("uses the ping's group key, else one per monitor", () => {
    expect(incidentGroupKey("mon_1", "db-1")).toBe("db-1");
    expect(incidentGroupKey("mon_1", null)).toBe("monitor:mon_1");
  });

  it("lets the ping's metadata win over the monitor's", () => {
    expect(incidentMetadata(monitor, "r", { group_key: "g", reason: "mine" })).toEqual({
      monitor: { id: "mon_1", name: "Nightly backup" },
      reason: "mine",
      group_key: "g",
    });
  });
});
