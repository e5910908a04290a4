import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { productionPackages } from "./production-tree.ts";

/**
 * Installed with the image but never loaded by a service: the embedded database of `npm start`,
 * and the OpenTelemetry exporters, propagators and setup helper the telemetry does not use (it
 * exports traces over OTLP/HTTP JSON and serves Prometheus metrics, nothing else).
 */
const NEVER_LOADED = [
  /^@electric-sql\//,
  /^@opentelemetry\/sdk-node$/,
  /^@opentelemetry\/configuration$/,
  /^@opentelemetry\/exporter-zipkin$/,
  /^@opentelemetry\/propagator-(b3|jaeger)$/,
  /^@opentelemetry\/otlp-grpc-exporter-base$/,
  /^@opentelemetry\/exporter-trace-otlp-(grpc|proto)$/,
  /^@opentelemetry\/exporter-(metrics|logs)-otlp-/,
];

describe("the production dependency tree (npm ci --omit=dev, the image)", () => {
  const production = productionPackages(join(import.meta.dirname, "../.."));

  it("holds no embedded database and no OpenTelemetry exporter or propagator a service does not load", () => {
    const unused = [...production].filter((name) => NEVER_LOADED.some((pattern) => pattern.test(name))).sort();
    expect(unused).toEqual([]);
  });

  it("still holds what the services load: the trace exporter, the Prometheus exporter, pg", () => {
    for (const name of ["@opentelemetry/exporter-trace-otlp-http", "@opentelemetry/exporter-prometheus", "pg"]) {
      expect(production).toContain(name);
    }
  });
});
