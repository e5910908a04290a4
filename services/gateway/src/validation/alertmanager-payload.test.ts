import { ALERTMANAGER_LIMITS } from "@pulsegate/contract/limits";
import { describe, expect, it } from "vitest";
import { parseAlertmanagerPayload } from "./alertmanager-payload.ts";

/** An alert as Alertmanager 0.25 sends it in a version 4 payload. */
const firing = {
  status: "firing",
  labels: { alertname: "HighErrorRate", severity: "critical", service: "checkout" },
  annotations: { summary: "Checkout errors above 5%", description: "5xx ratio 7% for 10m" },
  startsAt: "2026-03-01T10:00:00Z",
  endsAt: "0001-01-01T00:00:00Z",
  generatorURL: "http://prometheus:9090/graph?g0.expr=...",
  fingerprint: "c8b1f7a2e4d60913",
};

const payload = (alerts: unknown[], extra: Record<string, unknown> = {}) => ({
  receiver: "pulsegate",
  status: "firing",
  alerts,
  groupLabels: { alertname: "HighErrorRate" },
  commonLabels: {},
  commonAnnotations: {},
  externalURL: "http://alertmanager:9093",
  version: "4",
  groupKey: '{}:{alertname="HighErrorRate"}',
  truncatedAlerts: 0,
  ...extra,
});

function details(value: unknown) {
  const result = parseAlertmanagerPayload(value);
  if (result.ok) throw new Error("expected the payload to be refused");
  return result.details;
}

describe("parseAlertmanagerPayload", () => {
  it("reads status, labels, annotations, generatorURL and fingerprint of each alert, and nothing else", () => {
    const resolved = { ...firing, status: "resolved", fingerprint: "0a1b2c3d4e5f6071", endsAt: "2026-03-01T11:00:00Z" };
    expect(parseAlertmanagerPayload(payload([firing, resolved]))).toEqual({
      ok: true,
      value: {
        alerts: [
          {
            status: "firing",
            labels: firing.labels,
            annotations: firing.annotations,
            generatorURL: firing.generatorURL,
            fingerprint: firing.fingerprint,
          },
          {
            status: "resolved",
            labels: firing.labels,
            annotations: firing.annotations,
            generatorURL: firing.generatorURL,
            fingerprint: "0a1b2c3d4e5f6071",
          },
        ],
      },
    });
  });

  it("takes absent annotations as none, and an absent generatorURL as absent", () => {
    const { annotations: _, generatorURL: __, ...bare } = firing;
    const result = parseAlertmanagerPayload(payload([bare]));
    expect(result).toEqual({
      ok: true,
      value: {
        alerts: [{ status: "firing", labels: firing.labels, annotations: {}, fingerprint: firing.fingerprint }],
      },
    });
  });

  it("accepts a payload without alerts", () => {
    expect(parseAlertmanagerPayload(payload([]))).toEqual({ ok: true, value: { alerts: [] } });
  });

  it("refuses anything but a version 4 payload, naming the field", () => {
    expect(details([firing])).toEqual([{ field: "body", message: "body must be a JSON object." }]);
    for (const version of [undefined, 4, "3", "5"]) {
      expect(details(payload([firing], { version }))).toEqual([
        {
          field: "version",
          message: 'version must be "4": this endpoint takes Alertmanager\'s webhook payload (version 4).',
        },
      ]);
    }
    expect(details(payload([], { alerts: { 0: firing } }))).toEqual([
      { field: "alerts", message: "alerts must be an array of Alertmanager alerts." },
    ]);
  });

  it("refuses more alerts than the bound, telling how to keep Alertmanager under it", () => {
    const max = ALERTMANAGER_LIMITS.maxAlertsPerPayload;
    expect(parseAlertmanagerPayload(payload(Array.from({ length: max }, () => firing))).ok).toBe(true);
    expect(details(payload(Array.from({ length: max + 1 }, () => firing)))).toEqual([
      {
        field: "alerts",
        message: `alerts must hold at most ${max} alerts (this one holds ${max + 1}): set max_alerts: ${max} in Alertmanager's webhook_configs.`,
      },
    ]);
  });

  it("names every malformed alert field by its path", () => {
    const problems = details(
      payload([
        firing,
        "not an alert",
        { ...firing, status: "pending", fingerprint: "" },
        { ...firing, labels: { alertname: "X", replicas: 3 }, annotations: "none", generatorURL: 7 },
        { ...firing, labels: undefined, fingerprint: "f".repeat(ALERTMANAGER_LIMITS.fingerprintMaxLength + 1) },
        { ...firing, fingerprint: "ab\u0000cd" },
      ]),
    );
    expect(problems.map((problem) => problem.field)).toEqual([
      "alerts[1]",
      "alerts[2].status",
      "alerts[2].fingerprint",
      "alerts[3].labels.replicas",
      "alerts[3].annotations",
      "alerts[3].generatorURL",
      "alerts[4].fingerprint",
      "alerts[4].labels",
      "alerts[5].fingerprint",
    ]);
    expect(problems[1]?.message).toBe("alerts[2].status must be one of firing, resolved.");
    expect(problems[3]?.message).toBe("alerts[3].labels.replicas must be a string.");
    expect(problems[6]?.message).toBe(
      `alerts[4].fingerprint must be at most ${ALERTMANAGER_LIMITS.fingerprintMaxLength} characters.`,
    );
    expect(problems[8]?.message).toContain("U+0000");
  });

  it("counts a fingerprint's length in code points", () => {
    const max = ALERTMANAGER_LIMITS.fingerprintMaxLength;
    expect(parseAlertmanagerPayload(payload([{ ...firing, fingerprint: "😀".repeat(max) }])).ok).toBe(true);
  });
});
