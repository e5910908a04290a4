export { type Closer, closeOnSignals } from "./close-on-signals.ts";
export { type HttpDrain, watchHttpServer } from "./drain-http-server.ts";
export {
  grpcDrainMs,
  type InboundConnections,
  waitForCallers,
  watchInboundConnections,
} from "./inbound-connections.ts";
export { type Periodic, type PeriodicOptions, periodic } from "./periodic.ts";
export { withTimeout } from "./with-timeout.ts";
