// SREs trace every request across services (the caller's trace, continued by the gateway, links to
// the coalesced calls that carried it to auth and alerts) and scrape Prometheus metrics, business
// counters included.

import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, sign } from "../support/client.ts";
import { freePort } from "../support/free-port.ts";
import { OtlpReceiver } from "../support/otlp-receiver.ts";
import { Stack } from "../support/stack.ts";

let stack: Stack;
let receiver: OtlpReceiver;
let metricsPort: number;

beforeAll(async () => {
  metricsPort = await freePort();
  receiver = await OtlpReceiver.start();
  stack = await Stack.create({
    databaseName: `pulsegate_tracing_${process.pid}`,
    env: {
      OTEL_SDK_DISABLED: "false",
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_BSP_SCHEDULE_DELAY: "100",
      OTEL_TRACES_SAMPLER: "parentbased_always_on",
    },
    serviceEnv: (name) => ({
      OTEL_SERVICE_NAME: `pulsegate-${name}`,
      // As the Kubernetes downward API sets it (deploy/k8s/base/<workload>.yaml).
      OTEL_RESOURCE_ATTRIBUTES: `k8s.pod.name=${name}-0,k8s.namespace.name=pulsegate`,
      ...(name === "gateway" ? { METRICS_PORT: String(metricsPort) } : {}),
    }),
  });
});

afterAll(async () => {
  await stack?.destroy();
  await receiver?.close();
});

describe("distributed tracing", () => {
  it("continues the caller's W3C trace through gateway, auth and alerts", async () => {
    const client = new Client(stack.info);
    const { secret, webhookUrl } = await client.setup();
    const traceId = randomBytes(16).toString("hex");
    const body = JSON.stringify({ title: "Traced", group_key: "traced" });
    const response = await fetch(`${stack.info.baseUrl}/api/alerts/trigger/${webhookUrl}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-webhook-signature": sign(secret, body),
        traceparent: `00-${traceId}-${randomBytes(8).toString("hex")}-01`,
      },
      body,
    });
    expect(response.status).toBe(201);

    // The request's own spans (gateway, auth's VerifySignature when not coalesced), and through the
    // links of its coalesced calls the batches that carried it to auth and alerts.
    const reached = () => {
      const own = receiver.trace(traceId);
      const batches = new Set(own.flatMap((span) => span.links.map((link) => link.traceId)));
      const all = [...own, ...receiver.spans.filter((span) => batches.has(span.traceId))];
      return { all, services: new Set(all.map((span) => span.service)) };
    };
    await receiver.waitFor(() => reached().services.size >= 3, "spans of gateway, auth and alerts", 10_000);
    expect([...reached().services].sort()).toEqual(["pulsegate-alerts", "pulsegate-auth", "pulsegate-gateway"]);
    // The database work of the trigger is in its batch's trace, linked from the request.
    expect(reached().all.some((span) => span.scope === "@opentelemetry/instrumentation-pg")).toBe(true);
  });

  it("describes each process by its resource: name, version, Kubernetes attributes, host and process", async () => {
    const client = new Client(stack.info);
    await client.setup();
    const spans = await receiver.waitFor(
      (all) => all.some((span) => span.service === "pulsegate-gateway"),
      "a span of the gateway",
      10_000,
    );
    const resource = spans.find((span) => span.service === "pulsegate-gateway")?.resource ?? {};
    expect(resource).toMatchObject({
      "service.name": "pulsegate-gateway",
      // The service package's version, as no PULSEGATE_VERSION is set.
      "service.version": "0.1.0",
      "k8s.pod.name": "gateway-0",
      "k8s.namespace.name": "pulsegate",
      "host.name": hostname(),
      "process.runtime.name": "nodejs",
      "telemetry.sdk.language": "nodejs",
    });
    expect(resource["process.pid"]).toEqual(expect.any(Number));
  });

  it("counts trigger outcomes and error codes on the gateway's Prometheus endpoint", async () => {
    const client = new Client(stack.info);
    const { secret, webhookUrl } = await client.setup();
    await client.trigger(webhookUrl, { title: "m", group_key: "metrics" }, { secret });
    await client.trigger(webhookUrl, { title: "m", group_key: "metrics" }, { secret });
    await client.trigger(webhookUrl, { title: "m" }, { signature: null });
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? Number.NaN);
    expect(value(/^pulsegate_triggers_total\{[^}]*outcome="created"[^}]*\} (\d+)/m)).toBeGreaterThanOrEqual(1);
    expect(value(/^pulsegate_triggers_total\{[^}]*outcome="occurrence_added"[^}]*\} (\d+)/m)).toBeGreaterThanOrEqual(1);
    expect(
      value(/^pulsegate_request_errors_total\{[^}]*code="missing_signature"[^}]*\} (\d+)/m),
    ).toBeGreaterThanOrEqual(1);
    // How large the coalesced hot-path calls were (the batches grow with load).
    expect(value(/^pulsegate_gateway_batch_size_count\{[^}]*rpc="TriggerAlert"[^}]*\} (\d+)/m)).toBeGreaterThanOrEqual(
      2,
    );
  });
});
