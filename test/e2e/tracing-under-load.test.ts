// One trace per request, also under load. 30 concurrent signed triggers go through the
// gateway's coalesced calls; every request's whole tree is read back from a local OTLP receiver:
// its spans, the batch it was carried in (links both ways) with the RPC, the service and its
// statements, and the notification delivery that continues its trace (signing RPC, outbound POST,
// log line with its trace id). Then the same stack, left to its pollers, probes and scrapes,
// exports no trace that did no work; and every service exports its metrics.

import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { METRIC_CATALOGUE, seriesNames } from "../../packages/telemetry/src/metric-catalogue.ts";
import { Client, sign } from "../support/client.ts";
import { freePort } from "../support/free-port.ts";
import { type ExportedSpan, OtlpReceiver, SPAN_KIND } from "../support/otlp-receiver.ts";
import { Receiver } from "../support/receiver.ts";
import { type ServiceName, Stack } from "../support/stack.ts";
import { createChannel } from "./notifications-helpers.ts";

const REQUESTS = 30;
const SERVICES: ServiceName[] = ["gateway", "auth", "alerts", "monitors"];

let stack: Stack;
let otlp: OtlpReceiver;
let hooks: Receiver;
const metricsPorts = {} as Record<ServiceName, number>;

beforeAll(async () => {
  otlp = await OtlpReceiver.start();
  hooks = await Receiver.start();
  for (const name of SERVICES) metricsPorts[name] = await freePort();
  stack = await Stack.create({
    databaseName: `pulsegate_traces_${process.pid}`,
    env: {
      OTEL_SDK_DISABLED: "false",
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_BSP_SCHEDULE_DELAY: "100",
      OTEL_TRACES_SAMPLER: "parentbased_always_on",
      // Pollers as busy as they get: an idle stack must still export nothing.
      SWEEP_INTERVAL_MS: "100",
      SPOOL_DRAIN_INTERVAL_MS: "100",
      INCIDENT_POLL_MS: "100",
      NOTIFY_POLL_MS: "100",
    },
    serviceEnv: (name) => ({ OTEL_SERVICE_NAME: `pulsegate-${name}`, METRICS_PORT: String(metricsPorts[name]) }),
  });
});

afterAll(async () => {
  await stack?.destroy();
  await hooks?.close();
  await otlp?.close();
});

const byId = (spanId: string) => otlp.spans.find((span) => span.spanId === spanId);
const childrenOf = (span: ExportedSpan) =>
  otlp.spans.filter((other) => other.traceId === span.traceId && other.parentSpanId === span.spanId);
const descendantsOf = (span: ExportedSpan): ExportedSpan[] =>
  childrenOf(span).flatMap((child) => [child, ...descendantsOf(child)]);

async function scrape(name: ServiceName): Promise<string> {
  return (await fetch(`http://127.0.0.1:${metricsPorts[name]}/metrics`)).text();
}

describe("one trace per request, under load", () => {
  it("gives each of 30 concurrent triggers its whole tree: batch links, RPC, statements, delivery", async () => {
    const client = new Client(stack.info);
    const { teamId, secret, webhookUrl } = await client.setup();
    await createChannel(client, teamId, { kind: "webhook", url: hooks.url("/hooks/pulsegate") });

    const requests = Array.from({ length: REQUESTS }, (_, index) => ({
      traceId: randomBytes(16).toString("hex"),
      parentId: randomBytes(8).toString("hex"),
      body: JSON.stringify({ title: `Load ${index}`, group_key: `load-${index}-${randomBytes(4).toString("hex")}` }),
    }));
    const answers = await Promise.all(
      requests.map((request) =>
        fetch(`${stack.info.baseUrl}/api/alerts/trigger/${webhookUrl}`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "x-webhook-signature": sign(secret, request.body),
            traceparent: `00-${request.traceId}-${request.parentId}-01`,
          },
          body: request.body,
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(requests.map(() => 201));
    await hooks.waitForCount(REQUESTS, 30_000);

    // Each request's trace ends with its delivery: the outbound POST and, ended after it (so exported
    // after it, perhaps in a later export), the delivery span around it.
    const delivered = (traceId: string) => {
      const spans = otlp.trace(traceId);
      return (
        spans.some((span) => span.scope === "@opentelemetry/instrumentation-undici") &&
        spans.some((span) => span.name === "deliver alert.created")
      );
    };
    await otlp.waitFor(
      () => requests.every((request) => delivered(request.traceId)),
      "every request's delivery span",
      30_000,
    );
    const batchOf = (span: ExportedSpan, rpc: string) =>
      span.links.map((link) => byId(link.spanId)).find((linked) => linked?.name === `batch ${rpc}`);
    await otlp.waitFor(
      () =>
        requests.every((request) =>
          otlp.trace(request.traceId).some((span) => {
            const batch = batchOf(span, "TriggerAlert");
            return batch !== undefined && descendantsOf(batch).some((child) => child.service === "pulsegate-alerts");
          }),
        ),
      "every request's TriggerAlert batch, down to the alerts service",
    );

    const output = stack.output();
    const batches = new Set<string>();
    for (const request of requests) {
      const spans = otlp.trace(request.traceId);
      // The caller's trace is continued by the gateway's server span.
      const server = spans.find((span) => span.service === "pulsegate-gateway" && span.kind === SPAN_KIND.SERVER);
      expect(server?.parentSpanId, "gateway server span continues the caller's").toBe(request.parentId);
      expect(server?.resource["service.version"]).toMatch(/^\d+\.\d+\.\d+/);

      // The request's span links to its batches, and each batch links back to the request.
      const linking = spans.find((span) => batchOf(span, "TriggerAlert"));
      const batch = linking && batchOf(linking, "TriggerAlert");
      expect(batch, "a link to the TriggerAlert batch").toBeDefined();
      if (!batch || !linking) continue;
      batches.add(batch.spanId);
      expect(batch.parentSpanId).toBe("");
      expect(batch.links.some((link) => link.traceId === request.traceId && link.spanId === linking.spanId)).toBe(true);
      expect(spans.some((span) => batchOf(span, "VerifySignature"))).toBe(true);

      // The batch's trace: the gRPC call on the current conventions, the service, its statements.
      const below = descendantsOf(batch);
      const call = below.find((span) => span.kind === SPAN_KIND.CLIENT && span.service === "pulsegate-gateway");
      expect(call?.name).toBe("alerts.v1.AlertsService/TriggerAlert");
      expect(call?.attributes).toMatchObject({
        "rpc.system.name": "grpc",
        "rpc.method": "alerts.v1.AlertsService/TriggerAlert",
        "rpc.response.status_code": "OK",
      });
      expect(call?.attributes["rpc.grpc.status_code"]).toBeUndefined();
      const served = below.find((span) => span.kind === SPAN_KIND.SERVER && span.service === "pulsegate-alerts");
      expect(served?.parentSpanId).toBe(call?.spanId);
      const statements = below.filter((span) => span.scope === "@opentelemetry/instrumentation-pg");
      expect(statements.length).toBeGreaterThan(0);
      for (const statement of statements) {
        const text = String(statement.attributes["db.query.text"] ?? statement.attributes["db.statement"] ?? "");
        expect(text, "parameterised statements only").not.toMatch(/'/);
        expect(text).not.toContain(request.body);
      }

      // The delivery continues the request's trace: signing RPC, outbound POST (origin only), log line.
      const deliver = spans.find((span) => span.name === "deliver alert.created");
      expect(deliver?.service).toBe("pulsegate-alerts");
      expect(spans.some((span) => span.spanId === deliver?.parentSpanId)).toBe(true);
      const underDelivery = deliver ? descendantsOf(deliver) : [];
      const post = underDelivery.find((span) => span.scope === "@opentelemetry/instrumentation-undici");
      expect(post?.attributes["url.full"]).toBe(new URL(hooks.url()).origin);
      expect(JSON.stringify(post?.attributes)).not.toContain("/hooks/pulsegate");
      expect(
        underDelivery.some((span) => span.name === "auth.v1.AuthService/Sign" && span.kind === SPAN_KIND.CLIENT),
      ).toBe(true);
      expect(output).toMatch(new RegExp(`"trace_id":"${request.traceId}"[^\\n]*"msg":"notification delivered"`));
    }
    // Under load the requests were coalesced: fewer batches than requests.
    expect(batches.size).toBeLessThan(REQUESTS);
  });
});

describe("background work", () => {
  it("traces a sweep that took a monitor down, its incident and the incident's notification, with trace ids in their logs", async () => {
    const client = new Client(stack.info);
    const { teamId, secret, pingUrl, monitorId } = await client.setupMonitor(
      {},
      { intervalSeconds: 1, graceSeconds: 1 },
    );
    await createChannel(client, teamId, { kind: "webhook", url: hooks.url("/hooks/incidents") });
    const before = hooks.requests.length;
    expect((await client.ping(pingUrl, undefined, { secret })).status).toBe(200);
    // The sweeper marks it down, the incident worker raises the alert, the dispatcher notifies.
    await hooks.waitFor(
      (requests) => requests.slice(before).some((request) => request.path === "/hooks/incidents"),
      "the incident's notification",
    );
    const incident = (
      await otlp.waitFor(
        (spans) =>
          spans.some(
            (span) =>
              span.name === "incident raise" &&
              span.attributes["pulsegate.monitor.id"] === monitorId &&
              otlp.trace(span.traceId).some((other) => other.name === "deliver alert.created"),
          ),
        "the incident's trace, down to its delivery",
      )
    ).find((span) => span.name === "incident raise" && span.attributes["pulsegate.monitor.id"] === monitorId);
    if (!incident) throw new Error("no incident span");
    const spans = otlp.trace(incident.traceId);
    expect(incident.parentSpanId).toBe("");
    expect(
      spans.some((span) => span.name === "alerts.v1.AlertsService/TriggerAlert" && span.service === "pulsegate-alerts"),
    ).toBe(true);
    const sweep = await otlp.waitFor(
      (all) => all.some((span) => span.name === "missed-heartbeat sweep"),
      "the sweep's span",
    );
    const swept = sweep.find((span) => span.name === "missed-heartbeat sweep");
    const output = stack.output();
    expect(output).toMatch(new RegExp(`"trace_id":"${swept?.traceId}"[^\\n]*"msg":"missed heartbeat: monitors down"`));
    expect(output).toMatch(new RegExp(`"trace_id":"${incident.traceId}"[^\\n]*"msg":"notification delivered"`));
    expect(await scrape("monitors")).toMatch(/^pulsegate_monitors_missed_heartbeats_total(\{[^}]*\})? [1-9]/m);
  });
});

describe("metrics and failed-call logs", () => {
  it("exports every catalogued metric of each service, with bounded labels", async () => {
    // A ping, so that the monitors service has served a RecordPing.
    const client = new Client(stack.info);
    const { secret, pingUrl } = await client.setupMonitor();
    expect((await client.ping(pingUrl, undefined, { secret })).status).toBe(200);
    for (const name of SERVICES) {
      const missingFrom = (text: string) => {
        const present = new Set([...text.matchAll(/^([a-zA-Z_:][\w:]*)(?:\{| )/gm)].map((match) => match[1]));
        return METRIC_CATALOGUE.filter((entry) => entry.services.includes(name))
          .filter((entry) => entry.whenIdle || EXERCISED.has(entry.name))
          .filter((entry) => !seriesNames(entry).every((series) => present.has(series)))
          .map((entry) => entry.name);
      };
      // A gauge read from the database is left out of a scrape whose query overran its bound (a
      // loaded machine): up to three scrapes, a second apart, and the last one must hold them all.
      let text = await scrape(name);
      for (let attempt = 1; attempt < 3 && missingFrom(text).length > 0; attempt++) {
        await new Promise((done) => setTimeout(done, 1_000));
        text = await scrape(name);
      }
      const missing = missingFrom(text);
      expect(missing, `${name} /metrics`).toEqual([]);
      // No label value carries an id, a token or a URL.
      expect(text).not.toMatch(/(team|alert|wh|mon)_[A-Za-z0-9]{10,}/);
      expect(text).not.toContain(pingUrl);
    }
    const alerts = await scrape("alerts");
    expect(alerts).toMatch(
      /^rpc_server_call_duration_seconds_count\{[^}]*rpc_method="alerts\.v1\.AlertsService\/TriggerAlert"[^}]*rpc_response_status_code="OK"/m,
    );
    expect(alerts).toMatch(/^pulsegate_alerts_deliveries_total\{[^}]*result="delivered"/m);
    expect(alerts).toMatch(/^pulsegate_alerts_triggers_total\{[^}]*outcome="created"[^}]*source="webhook"/m);
    expect(await scrape("gateway")).toMatch(
      /^http_server_request_duration_seconds_count\{[^}]*http_route="\/api\/alerts\/trigger\/:webhookUrl"/m,
    );
  });

  it("logs one line per failed RPC with its code, in the caller's trace", async () => {
    const client = new Client(stack.info);
    const traceId = randomBytes(16).toString("hex");
    const response = await fetch(`${stack.info.baseUrl}/admin/v1/alerts/alert_00000000000000000000000000`, {
      headers: {
        authorization: `Bearer ${stack.info.adminToken}`,
        traceparent: `00-${traceId}-${randomBytes(8).toString("hex")}-01`,
      },
    });
    expect(response.status).toBe(404);
    await client.admin("GET", "/teams"); // any later answer: the failed call's line was written before it
    const lines = stack
      .output()
      .split("\n")
      .filter((line) => line.startsWith("[alerts] ") && line.includes('"msg":"rpc failed"') && line.includes(traceId));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/"method":"alerts\.v1\.AlertsService\/\w+"/);
    expect(lines[0]).toContain('"grpcCode":"NOT_FOUND"');
    expect(lines[0]).toMatch(/"code":"\w+_not_found"/);
  });
});

/** Metrics that appear with their first event, which the tests above cause. */
const EXERCISED = new Set([
  "http_server_request_duration_seconds",
  "rpc_server_call_duration_seconds",
  "pulsegate_rpc_batch_size",
  "pulsegate_triggers_total",
  "pulsegate_pings_total",
  "pulsegate_gateway_batch_size",
  "pulsegate_gateway_batch_duration_seconds",
  "pulsegate_alerts_triggers_total",
  "pulsegate_alerts_deliveries_total",
  "pulsegate_monitors_sweeps_total",
  "pulsegate_monitors_missed_heartbeats_total",
]);

/** Roots of traces that did work: requests, coalesced calls, and pollers' spans once they found work. */
function isWork(span: ExportedSpan): boolean {
  if (span.service === "pulsegate-gateway" && span.kind === SPAN_KIND.SERVER) {
    return !/^\/(healthz|readyz|metrics)/.test(String(span.attributes["url.path"] ?? span.attributes["http.target"]));
  }
  if (/^batch /.test(span.name) || /^deliver /.test(span.name) || /^incident /.test(span.name)) return true;
  if (span.name === "spool drain" || span.name === "missed-heartbeat sweep") return true;
  // The gateway's audit queue sends what admin actions recorded.
  return span.name === "auth.v1.AuthService/RecordAuditEntries";
}

describe("an idle stack", () => {
  it("exports no trace for pollers, probes and scrapes", async () => {
    const sweeps = async () =>
      Number(
        /^pulsegate_monitors_sweeps_total\{[^}]*result="ok"[^}]*\} (\d+)/m.exec(await scrape("monitors"))?.[1] ?? 0,
      );
    const before = await sweeps();
    // Probes (the gateway's readiness asks every peer's grpc.health.v1) and scrapes, while the pollers run.
    for (let round = 0; round < 5; round++) {
      expect((await fetch(`${stack.info.baseUrl}/healthz`)).status).toBe(200);
      expect((await fetch(`${stack.info.baseUrl}/readyz`)).status).toBe(200);
      for (const name of SERVICES) await scrape(name);
    }
    // Awaited, not slept: the sweeper (and the other pollers, on the same period) ran many times.
    const deadline = Date.now() + 20_000;
    while ((await sweeps()) < before + 20) {
      if (Date.now() > deadline) throw new Error("the sweeper did not run 20 times");
      await new Promise((done) => setTimeout(done, 100));
    }
    // Stopping flushes every process's spans to the receiver.
    await stack.stopAll();
    const idle = otlp.spans.filter((span) => span.parentSpanId === "" && !isWork(span));
    expect(
      idle.map((span) => `${span.service} ${span.name} ${span.scope}`),
      "root spans of traces that did no work",
    ).toEqual([]);
    expect(otlp.spans.some((span) => /health|readyz|metrics/i.test(span.name))).toBe(false);
  });
});
