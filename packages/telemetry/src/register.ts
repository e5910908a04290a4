// Loaded with `node --import @pulsegate/telemetry/register` before any service
// code, so that http, gRPC, pg, ioredis, pino and Fastify are instrumented
// when they are first imported.
import { register } from "node:module";
import { startTelemetry } from "./start-telemetry.ts";

register("@opentelemetry/instrumentation/hook.mjs", import.meta.url);
startTelemetry();
