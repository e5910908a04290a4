import { randomBytes } from "node:crypto";
import { env, loadConfig } from "@pulsegate/runtime/config";
import { oidcSettingsOf } from "./routes/dashboard/oidc/oidc-settings.ts";

export function loadGatewayConfig(source: NodeJS.ProcessEnv = process.env) {
  // REDIS_URL="" (`npm start` in embedded mode or with no Redis reachable): no Redis at all,
  // rate limits in process. Unset: the local default.
  const noRedis = source.REDIS_URL === "";
  const config = loadConfig(
    {
      NODE_ENV: env.nodeEnv(),
      LOG_LEVEL: env.logLevel(),
      PORT: env.port(8080),
      // This machine only, as a laptop wants (a development token is printed); containers set `::`
      // (every interface, IPv6 and IPv4; IPv4 only where the machine has no IPv6).
      HOST: env.string("127.0.0.1"),
      AUTH_GRPC_ADDR: env.grpcAddress("127.0.0.1:50051"),
      ALERTS_GRPC_ADDR: env.grpcAddress("127.0.0.1:50052"),
      MONITORS_GRPC_ADDR: env.grpcAddress("127.0.0.1:50053"),
      REDIS_URL: env.url("redis://127.0.0.1:6379"),
      ADMIN_TOKEN: env.optionalString(),
      GRPC_TIMEOUT_MS: env.int(2_000, 1, 60_000),
      // Alerts' (set both alike): a channel test waits for the receiver, so its deadline allows for it.
      NOTIFY_ATTEMPT_TIMEOUT_MS: env.int(5_000, 100, 120_000),
      WEBHOOK_CACHE_MS: env.int(5_000, 0, 60_000),
      // Monitors found by ping URL are reused for minutes (RecordPing checks again); room for every active one.
      MONITOR_CACHE_MS: env.int(300_000, 0, 3_600_000),
      MONITOR_CACHE_MAX: env.int(200_000, 1_000, 10_000_000),
      // A verified (team, signature, body) is reused this long without asking auth (no key material here).
      VERIFIED_CACHE_MS: env.int(3_000, 0, 60_000),
      // A verified team API key is reused this long without asking auth (never its token).
      API_KEY_CACHE_MS: env.int(5_000, 0, 60_000),
      // Deadlines from a request's first byte: headers, and the whole request (answered 408).
      HEADERS_TIMEOUT_MS: env.int(10_000, 100, 600_000),
      REQUEST_TIMEOUT_MS: env.int(30_000, 100, 600_000),
      // Shutdown (docs/operations.md, "Shutdown"): the drain, closing clients and the telemetry
      // flush share it. 35 s fits Kubernetes' 45 s grace period less the 5 s preStop delay, with
      // 5 s to spare, and outlasts a request begun just before SIGTERM.
      SHUTDOWN_TIMEOUT_MS: env.shutdownTimeoutMs(35_000),
      // e.g. https://pulsegate.example.com, for triggerUrl and pingEndpoint behind an ingress.
      PUBLIC_BASE_URL: env.optionalString(),
      // "true", or comma-separated proxy addresses/CIDRs (Fastify trustProxy).
      TRUST_PROXY: env.optionalString(),
      // Failed credentials (401s) per client address within a minute before it is blocked, and for how long.
      AUTH_FAILURE_LIMIT: env.int(20, 1, 10_000),
      AUTH_FAILURE_BLOCK_SECONDS: env.int(60, 1, 3_600),
      // Namespace of the gateway's dashboard sessions and failure counts in Redis: one per deployment sharing a Redis.
      REDIS_KEY_PREFIX: env.string("pulsegate"),
      // Dashboard sign-in through an OpenID Connect provider (docs/sign-in.md); unset: tokens only.
      OIDC_ISSUER: env.optionalString(),
      OIDC_CLIENT_ID: env.optionalString(),
      OIDC_CLIENT_SECRET: env.optionalString(),
      // group=role,…: admin, member:<team> or viewer:<team>.
      OIDC_GROUPS: env.optionalString(),
      OIDC_GROUPS_CLAIM: env.string("groups"),
      // offline_access: a refresh token, with which a signed-in person is checked again.
      OIDC_SCOPES: env.string("openid profile email offline_access"),
      OIDC_CHECK_SECONDS: env.int(300, 1, 86_400),
      OIDC_NAME: env.string("Sign in with SSO"),
    },
    noRedis ? { ...source, REDIS_URL: undefined } : source,
  );
  if (config.NODE_ENV === "production" && !config.ADMIN_TOKEN) {
    throw new Error("Invalid configuration:\n  ADMIN_TOKEN: required when NODE_ENV=production");
  }
  if (config.HEADERS_TIMEOUT_MS > config.REQUEST_TIMEOUT_MS) {
    throw new Error("Invalid configuration:\n  HEADERS_TIMEOUT_MS: must not be longer than REQUEST_TIMEOUT_MS");
  }
  if (config.SHUTDOWN_TIMEOUT_MS <= config.REQUEST_TIMEOUT_MS) {
    // A request begun just before SIGTERM may take REQUEST_TIMEOUT_MS to arrive and be answered.
    throw new Error("Invalid configuration:\n  SHUTDOWN_TIMEOUT_MS: must be longer than REQUEST_TIMEOUT_MS");
  }
  // Outside production a missing token is generated, so the admin API is never open.
  const adminTokenGenerated = !config.ADMIN_TOKEN;
  const adminToken = config.ADMIN_TOKEN ?? randomBytes(32).toString("base64url");
  const publicBaseUrl = config.PUBLIC_BASE_URL?.replace(/\/+$/, "");
  const trustProxy = parseTrustProxy(config.TRUST_PROXY);
  const oidc = oidcSettingsOf(config);
  return {
    ...config,
    REDIS_URL: noRedis ? "" : config.REDIS_URL,
    adminToken,
    adminTokenGenerated,
    publicBaseUrl,
    trustProxy,
    oidc,
  };
}

export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;

function parseTrustProxy(value: string | undefined): boolean | string | undefined {
  if (value === undefined) return undefined;
  if (value === "true" || value === "false") return value === "true";
  return value;
}
