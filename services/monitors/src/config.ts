import { env, loadConfig } from "@pulsegate/config";

export function loadMonitorsConfig(source: NodeJS.ProcessEnv = process.env) {
  return loadConfig(
    {
      NODE_ENV: env.nodeEnv(),
      LOG_LEVEL: env.logLevel(),
      GRPC_LISTEN_ADDR: env.string("0.0.0.0:50053"),
    },
    source,
  );
}
