export { type CloseOnSignalsOptions, type Closer, closeOnSignals } from "./close-on-signals.ts";
export { type HttpDrain, watchHttpServer } from "./drain-http-server.ts";
export { dualStackOrIpv4 } from "./dual-stack.ts";
export { flushTelemetry } from "./flush-telemetry.ts";
export { type InboundConnections, waitForCallers, watchInboundConnections } from "./inbound-connections.ts";
export { type Periodic, type PeriodicOptions, periodic } from "./periodic.ts";
export { withTimeout } from "./with-timeout.ts";
