import { SpanKind } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-node";
import { describe, expect, it } from "vitest";
import { RedactingSpanProcessor } from "./redacting-span-processor.ts";

/** A real tracer provider whose spans pass the processor into memory. */
function record() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    spanProcessors: [new RedactingSpanProcessor(new SimpleSpanProcessor(exporter))],
  });
  return { exporter, tracer: (scope: string) => provider.getTracer(scope) };
}

describe("RedactingSpanProcessor", () => {
  it("brings gRPC spans to the current RPC conventions", () => {
    const { exporter, tracer } = record();
    const grpc = tracer("@opentelemetry/instrumentation-grpc");
    grpc
      .startSpan("grpc.alerts.v1.AlertsService/TriggerAlert", { kind: SpanKind.SERVER })
      .setAttributes({ "rpc.system": "grpc", "rpc.service": "alerts.v1.AlertsService", "rpc.method": "TriggerAlert" })
      .setAttribute("rpc.grpc.status_code", 0)
      .end();
    grpc
      .startSpan("grpc.auth.v1.AuthService/Sign", { kind: SpanKind.CLIENT })
      .setAttributes({ "rpc.system": "grpc", "rpc.service": "auth.v1.AuthService", "rpc.method": "Sign" })
      .setAttribute("rpc.grpc.status_code", 14)
      .end();
    grpc
      .startSpan("grpc.alerts.v1.AlertsService/GetAlert", { kind: SpanKind.SERVER })
      .setAttributes({ "rpc.system": "grpc", "rpc.service": "alerts.v1.AlertsService", "rpc.method": "GetAlert" })
      .setAttribute("rpc.grpc.status_code", 5)
      .end();
    const [served, called, notFound] = exporter.getFinishedSpans();
    expect(served?.name).toBe("alerts.v1.AlertsService/TriggerAlert");
    expect(served?.attributes).toEqual({
      "rpc.system.name": "grpc",
      "rpc.method": "alerts.v1.AlertsService/TriggerAlert",
      "rpc.response.status_code": "OK",
    });
    expect(called?.attributes).toMatchObject({
      "rpc.response.status_code": "UNAVAILABLE",
      "error.type": "UNAVAILABLE",
    });
    // NOT_FOUND is the caller's doing: no error on the server's span.
    expect(notFound?.attributes["rpc.response.status_code"]).toBe("NOT_FOUND");
    expect(notFound?.attributes["error.type"]).toBeUndefined();
  });

  it("keeps an outbound request's origin only: a channel URL is a credential", () => {
    const { exporter, tracer } = record();
    tracer("@opentelemetry/instrumentation-undici")
      .startSpan("POST", { kind: SpanKind.CLIENT })
      .setAttributes({
        "url.full": "https://hooks.slack.com/services/T000/B000/SECRETSECRET?token=abc",
        "url.path": "/services/T000/B000/SECRETSECRET",
        "url.query": "?token=abc",
        "server.address": "hooks.slack.com",
      })
      .end();
    const [span] = exporter.getFinishedSpans();
    expect(span?.attributes["url.full"]).toBe("https://hooks.slack.com");
    expect(span?.attributes["url.path"]).toBe("{redacted}");
    expect(JSON.stringify(span?.attributes)).not.toMatch(/SECRET|token=abc/);
  });

  it("replaces SQL literals and public URL tokens", () => {
    const { exporter, tracer } = record();
    tracer("@opentelemetry/instrumentation-pg")
      .startSpan("pg.query")
      .setAttribute("db.query.text", "select * from alerts.channels where url = 'https://x/SECRET'")
      .end();
    const paths = [
      "/api/ping/abcdefTOKEN",
      "/api/ping/abcdefTOKEN/start?dryRun=true",
      "/api/alerts/trigger/abcdefTOKEN",
      "/api/alerts/resolve/abcdefTOKEN",
      "/api/alerts/alertmanager/abcdefTOKEN",
      "/badge/abcdefTOKEN.svg",
    ];
    for (const path of paths) {
      tracer("@opentelemetry/instrumentation-http").startSpan("POST").setAttribute("url.path", path).end();
    }
    const [query, ...http] = exporter.getFinishedSpans();
    expect(query?.attributes["db.query.text"]).toBe("select * from alerts.channels where url = ?");
    expect(http.map((span) => span.attributes["url.path"])).toEqual([
      "/api/ping/{token}",
      "/api/ping/{token}/start?dryRun=true",
      "/api/alerts/trigger/{token}",
      "/api/alerts/resolve/{token}",
      "/api/alerts/alertmanager/{token}",
      "/badge/{token}.svg",
    ]);
  });
});
