import { checkDrainFitsShutdown, env, loadConfig } from "@pulsegate/runtime/config";

export function loadAuthConfig(source: NodeJS.ProcessEnv = process.env) {
  const config = loadConfig(
    {
      NODE_ENV: env.nodeEnv(),
      LOG_LEVEL: env.logLevel(),
      GRPC_LISTEN_ADDR: env.listenAddress("[::]:50051"),
      GRPC_MAX_CONNECTION_AGE_MS: env.grpcMaxConnectionAgeMs(),
      // Shutdown (docs/operations.md, "Shutdown"): every step shares SHUTDOWN_TIMEOUT_MS; the first,
      // serving while callers are still connected, lasts at most GRPC_DRAIN_MS of it. 20 s fits
      // Kubernetes' 30 s grace period less the 5 s preStop delay, with 5 s to spare.
      SHUTDOWN_TIMEOUT_MS: env.shutdownTimeoutMs(20_000),
      GRPC_DRAIN_MS: env.grpcDrainMs(),
      // Sign (HMAC with a team's secret) has its own listener, so a NetworkPolicy
      // can let only alerts reach it; on GRPC_LISTEN_ADDR it is refused.
      SIGNING_GRPC_LISTEN_ADDR: env.listenAddress("[::]:50054"),
      // false: change no schema at start, and wait (alive, not ready) until the migrate Job has
      // applied every migration this release knows (production; docs/operations.md, "Migrations").
      MIGRATE_ON_START: env.boolean(true),
      // Every pooled PostgreSQL connection of the process (the ORM's); the LISTEN client is one more
      // (docs/operations.md, "PostgreSQL connections").
      DB_POOL_MAX: env.int(10, 1, 200),
      DATABASE_URL: env.string("postgres://postgres@127.0.0.1:5432/pulsegate"),
      AUTH_DATABASE_URL: env.optionalString(),
      // Base64 of 32 bytes, or a comma-separated list: the newest first, then older KEKs
      // still able to open sealed values. Development falls back to a fixed, publicly known key.
      SECRET_KEK: env.optionalString(),
      // More older KEKs, as "id:base64,id:base64" (kept for existing setups).
      SECRET_KEK_PREVIOUS: env.optionalString(),
      VERIFIER_CACHE_MS: env.int(5_000, 0, 60_000),
      // Every team's sealed keys are held in memory, so signatures verify while PostgreSQL is
      // away; changes made through other replicas are read this often.
      TEAM_DIRECTORY_REFRESH_MS: env.int(30_000, 100, 3_600_000),
    },
    source,
  );
  checkDrainFitsShutdown(config);
  // SECRET_KEK is checked where it is used (parseKeyring, at service start):
  // `npm run migrate` reads this config too and has no business with it.
  return { ...config, databaseUrl: config.AUTH_DATABASE_URL ?? config.DATABASE_URL };
}

export type AuthConfig = ReturnType<typeof loadAuthConfig>;
