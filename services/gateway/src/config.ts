import { randomBytes } from "node:crypto";
import { env, loadConfig } from "@pulsegate/config";

export function loadGatewayConfig(source: NodeJS.ProcessEnv = process.env) {
  const config = loadConfig(
    {
      NODE_ENV: env.nodeEnv(),
      LOG_LEVEL: env.logLevel(),
      PORT: env.port(8080),
      HOST: env.string("0.0.0.0"),
      AUTH_GRPC_ADDR: env.grpcAddress("127.0.0.1:50051"),
      ALERTS_GRPC_ADDR: env.grpcAddress("127.0.0.1:50052"),
      MONITORS_GRPC_ADDR: env.grpcAddress("127.0.0.1:50053"),
      REDIS_URL: env.url("redis://127.0.0.1:6379"),
      ADMIN_TOKEN: env.optionalString(),
      GRPC_TIMEOUT_MS: env.int(2_000, 1, 60_000),
      WEBHOOK_CACHE_MS: env.int(5_000, 0, 60_000),
      // e.g. https://pulsegate.example.com, for triggerUrl and pingEndpoint behind an ingress.
      PUBLIC_BASE_URL: env.optionalString(),
      // "true", or comma-separated proxy addresses/CIDRs (Fastify trustProxy).
      TRUST_PROXY: env.optionalString(),
    },
    source,
  );
  if (config.NODE_ENV === "production" && !config.ADMIN_TOKEN) {
    throw new Error("Invalid configuration:\n  ADMIN_TOKEN: required when NODE_ENV=production");
  }
  // Outside production a missing token is generated, so the admin API is never open.
  const adminTokenGenerated = !config.ADMIN_TOKEN;
  const adminToken = config.ADMIN_TOKEN ?? randomBytes(32).toString("base64url");
  const publicBaseUrl = config.PUBLIC_BASE_URL?.replace(/\/+$/, "");
  const trustProxy = parseTrustProxy(config.TRUST_PROXY);
  return { ...config, adminToken, adminTokenGenerated, publicBaseUrl, trustProxy };
}

export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;

function parseTrustProxy(value: string | undefined): boolean | string | undefined {
  if (value === undefined) return undefined;
  if (value === "true" || value === "false") return value === "true";
  return value;
}
