// SREs trace every request across services (spans from gateway, auth and alerts share the caller's
// trace) and scrape Prometheus metrics, business counters included.

import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, sign } from "../support/client.ts";
import { freePort } from "../support/free-port.ts";
import { Stack } from "../support/stack.ts";

type ExportedSpan = { traceId: string; name: string; service: string };

let stack: Stack;
let receiver: Server;
let metricsPort: number;
const spans: ExportedSpan[] = [];

/** A minimal OTLP/HTTP JSON trace receiver. */
function startReceiver(port: number): Promise<Server> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as {
        resourceSpans?: {
          resource?: { attributes?: { key: string; value: { stringValue?: string } }[] };
          scopeSpans?: { spans?: { traceId: string; name: string }[] }[];
        }[];
      };
      for (const resourceSpan of body.resourceSpans ?? []) {
        const service =
          resourceSpan.resource?.attributes?.find((a) => a.key === "service.name")?.value.stringValue ?? "?";
        for (const scope of resourceSpan.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) spans.push({ traceId: span.traceId, name: span.name, service });
        }
      }
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server)));
}

beforeAll(async () => {
  const port = await freePort();
  metricsPort = await freePort();
  receiver = await startReceiver(port);
  stack = await Stack.create({
    databaseName: `pulsegate_tracing_${process.pid}`,
    env: {
      OTEL_SDK_DISABLED: "false",
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_BSP_SCHEDULE_DELAY: "100",
      OTEL_TRACES_SAMPLER: "parentbased_always_on",
    },
    serviceEnv: (name) => ({
      OTEL_SERVICE_NAME: `pulsegate-${name}`,
      ...(name === "gateway" ? { METRICS_PORT: String(metricsPort) } : {}),
    }),
  });
});

afterAll(async () => {
  await stack?.destroy();
  receiver?.close();
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

    const deadline = Date.now() + 10_000;
    const services = () => new Set(spans.filter((span) => span.traceId === traceId).map((span) => span.service));
    while (Date.now() < deadline && services().size < 3) await new Promise((done) => setTimeout(done, 100));
    expect([...services()].sort()).toEqual(["pulsegate-alerts", "pulsegate-auth", "pulsegate-gateway"]);
    // The database work of the trigger is in the same trace.
    expect(spans.some((span) => span.traceId === traceId && /INSERT|UPDATE|pg/i.test(span.name))).toBe(true);
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
