// Loaded with `node --import @pulsegate/telemetry/register` before any service
// code, so that http, gRPC, pg, ioredis, pino and Fastify are instrumented
// when they are first imported.
import { register } from "node:module";
import { startTelemetry } from "./start-telemetry.ts";

// Only the modules the instrumentations patch go through import-in-the-middle:
// wrapping every module a service imports cost seconds of start-up each.
register("@opentelemetry/instrumentation/hook.mjs", import.meta.url, {
  data: { include: ["pg", "ioredis", "@grpc/grpc-js", "pino", "fastify", "http", "https", "node:http", "node:https"] },
});
startTelemetry();
