import { ALERT_LIMITS } from "@pulsegate/contract/limits";
import { describe, expect, it } from "vitest";
import type { AlertmanagerAlert } from "../../validation/alertmanager-payload.ts";
import { alertmanagerAction, clip, severityOf } from "./alertmanager-alert.ts";

const alert = (overrides: Partial<AlertmanagerAlert> = {}): AlertmanagerAlert => ({
  status: "firing",
  labels: { alertname: "HighErrorRate", severity: "critical", service: "checkout" },
  annotations: { summary: "Checkout errors above 5%", description: "5xx ratio 7% for 10m" },
  generatorURL: "http://prometheus:9090/graph?g0.expr=x",
  fingerprint: "c8b1f7a2e4d60913",
  ...overrides,
});

describe("alertmanagerAction", () => {
  it("makes a firing alert a trigger: fingerprint as group key, summary, description, severity, metadata", () => {
    expect(alertmanagerAction(alert(), "alerts[0]")).toEqual({
      fingerprint: "c8b1f7a2e4d60913",
      kind: "trigger",
      body: {
        title: "Checkout errors above 5%",
        description: "5xx ratio 7% for 10m",
        severity: "sev1",
        group_key: "c8b1f7a2e4d60913",
        metadata: {
          labels: { alertname: "HighErrorRate", severity: "critical", service: "checkout" },
          annotations: { summary: "Checkout errors above 5%", description: "5xx ratio 7% for 10m" },
          generatorURL: "http://prometheus:9090/graph?g0.expr=x",
        },
      },
    });
  });

  it("makes a resolved alert a resolve by its fingerprint, whatever else it holds", () => {
    const resolved = alert({ status: "resolved", labels: { bad: "\u0000" } });
    expect(alertmanagerAction(resolved, "alerts[0]")).toEqual({ fingerprint: "c8b1f7a2e4d60913", kind: "resolve" });
  });

  it("titles an alert by summary, else alertname, else its label set, else its fingerprint", () => {
    const title = (labels: Record<string, string>, annotations: Record<string, string>) => {
      const action = alertmanagerAction(alert({ labels, annotations }), "alerts[0]");
      return action.kind === "trigger" ? action.body.title : undefined;
    };
    expect(title({ alertname: "DiskFull" }, { summary: "Disk of db-1 full" })).toBe("Disk of db-1 full");
    expect(title({ alertname: "DiskFull" }, {})).toBe("DiskFull");
    // A summary with nothing to show is no title.
    expect(title({ alertname: "DiskFull" }, { summary: " \u200b " })).toBe("DiskFull");
    expect(title({ job: "node", instance: "db-1:9100" }, {})).toBe('{job="node", instance="db-1:9100"}');
    expect(title({}, {})).toBe("Alertmanager alert c8b1f7a2e4d60913");
  });

  it("leaves out a description and a severity the alert does not give", () => {
    const action = alertmanagerAction(alert({ labels: { alertname: "X" }, annotations: {} }), "alerts[0]");
    expect(action.kind === "trigger" && action.body).toEqual({
      title: "X",
      group_key: "c8b1f7a2e4d60913",
      metadata: { labels: { alertname: "X" }, annotations: {}, generatorURL: "http://prometheus:9090/graph?g0.expr=x" },
    });
  });

  it("keeps no generatorURL in metadata when the alert has none", () => {
    const { generatorURL: _, ...bare } = alert();
    const action = alertmanagerAction(bare, "alerts[0]");
    expect(action.kind === "trigger" && Object.keys(action.body.metadata ?? {})).toEqual(["labels", "annotations"]);
  });

  it("shortens a long summary and description to a trigger's bounds instead of refusing them", () => {
    const summary = "é".repeat(ALERT_LIMITS.titleMaxLength + 50);
    const description = "d".repeat(ALERT_LIMITS.descriptionMaxLength + 1);
    const action = alertmanagerAction(alert({ annotations: { summary, description } }), "alerts[0]");
    if (action.kind !== "trigger") throw new Error("expected a trigger");
    expect(Array.from(action.body.title)).toHaveLength(ALERT_LIMITS.titleMaxLength);
    expect(action.body.title.endsWith("é…")).toBe(true);
    expect(action.body.description).toHaveLength(ALERT_LIMITS.descriptionMaxLength);
    // The whole text stays in the metadata.
    expect(action.body.metadata?.annotations).toMatchObject({ summary });
  });

  it("makes an alert with text that cannot be stored invalid, naming the field in the payload", () => {
    const action = alertmanagerAction(
      alert({ labels: { alertname: "X", "pod\u0000": "a" }, annotations: { summary: "\ud800" } }),
      "alerts[3]",
    );
    expect(action.kind).toBe("invalid");
    expect(action.kind === "invalid" && action.details.map((detail) => detail.field)).toEqual([
      "alerts[3].labels.pod\u0000",
      "alerts[3].annotations.summary",
    ]);
  });

  it("makes an alert whose labels and annotations exceed the metadata bound invalid", () => {
    const annotations = { runbook: "r".repeat(ALERT_LIMITS.metadataMaxBytes) };
    const action = alertmanagerAction(alert({ annotations }), "alerts[1]");
    expect(action).toEqual({
      fingerprint: "c8b1f7a2e4d60913",
      kind: "invalid",
      details: [
        {
          field: "alerts[1]",
          message: `alerts[1]: its labels, annotations and generatorURL, stored as metadata, must be at most ${ALERT_LIMITS.metadataMaxBytes} bytes as JSON.`,
        },
      ],
    });
  });
});

describe("severityOf", () => {
  it("maps Alertmanager's usual severities, takes sevN as it is, and leaves others to the webhook", () => {
    const cases: [string | undefined, string | undefined][] = [
      ["critical", "sev1"],
      ["error", "sev2"],
      ["warning", "sev3"],
      ["info", "sev4"],
      ["Critical", "sev1"],
      [" WARNING ", "sev3"],
      ["sev0", "sev0"],
      ["sev4", "sev4"],
      ["SEV2", "sev2"],
      ["sev5", undefined],
      ["page", undefined],
      ["none", undefined],
      ["", undefined],
      ["toString", undefined],
      ["constructor", undefined],
      ["__proto__", undefined],
      [undefined, undefined],
    ];
    for (const [label, severity] of cases) expect(severityOf(label), String(label)).toBe(severity);
  });
});

describe("clip", () => {
  it("keeps text within the bound, and shortens longer text by code points, ending in …", () => {
    expect(clip("abc", 3)).toBe("abc");
    expect(clip("abcd", 3)).toBe("ab…");
    expect(clip("😀😀😀", 3)).toBe("😀😀😀");
    expect(clip("😀😀😀😀", 3)).toBe("😀😀…");
  });
});
