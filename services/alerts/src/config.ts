import { env, loadConfig } from "@pulsegate/config";

export function loadAlertsConfig(source: NodeJS.ProcessEnv = process.env) {
  const config = loadConfig(
    {
      NODE_ENV: env.nodeEnv(),
      LOG_LEVEL: env.logLevel(),
      GRPC_LISTEN_ADDR: env.string("0.0.0.0:50052"),
      AUTH_GRPC_ADDR: env.grpcAddress("127.0.0.1:50051"),
      DB_POOL_MAX: env.int(20, 1, 100),
      DATABASE_URL: env.string("postgres://postgres@127.0.0.1:5432/pulsegate"),
      ALERTS_DATABASE_URL: env.optionalString(),
    },
    source,
  );
  return { ...config, databaseUrl: config.ALERTS_DATABASE_URL ?? config.DATABASE_URL };
}

export type AlertsConfig = ReturnType<typeof loadAlertsConfig>;
