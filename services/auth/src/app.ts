import { createPgPool, type OpenServiceDatabaseOptions, openServiceDatabase } from "@pulsegate/db";
import type { ServiceBinding } from "@pulsegate/grpc";
import type { Logger } from "@pulsegate/runtime/logger";
import { ApiKeySchema } from "./api-keys/api-key.entity.ts";
import { ApiKeyService } from "./api-keys/api-key-service.ts";
import { AuditLogEntrySchema } from "./audit/audit-log.entity.ts";
import { AuditLog } from "./audit/audit-log.ts";
import type { AuthConfig } from "./config.ts";
import { authServiceBinding } from "./grpc/auth-server.ts";
import { migrations } from "./migrations/index.ts";
import { parseKeyring } from "./secrets/index.ts";
import { resealTeams } from "./secrets/reseal-teams.ts";
import { TeamSchema } from "./teams/team.entity.ts";
import { followTeamChanges } from "./teams/team-changes.ts";
import { TeamDirectory } from "./teams/team-directory.ts";
import { TeamKeys } from "./teams/team-keys.ts";
import { TeamService } from "./teams/team-service.ts";

export const AUTH_SCHEMA = "auth";

/**
 * Opens the auth schema: creating the database if missing and applying pending migrations, or
 * with `migrate: false` (MIGRATE_ON_START=false) waiting until the migrate Job has applied them.
 */
export async function openAuthDatabase(config: AuthConfig, log: Logger, options: OpenServiceDatabaseOptions = {}) {
  return openServiceDatabase(
    {
      url: config.databaseUrl,
      schema: AUTH_SCHEMA,
      entities: [TeamSchema, ApiKeySchema, AuditLogEntrySchema],
      migrations,
      poolMax: config.DB_POOL_MAX,
    },
    log,
    options,
  );
}

/** Builds the auth service, un-started: main.ts (or a test) serves its gRPC services and closes. */
export async function buildAuthService(config: AuthConfig, log: Logger) {
  const keyring = parseKeyring(config.SECRET_KEK, config.SECRET_KEK_PREVIOUS, config.NODE_ENV);
  const orm = await openAuthDatabase(config, log, { migrate: config.MIGRATE_ON_START });
  // Before serving: a ping that comes while PostgreSQL is away can be verified for any team.
  const directory = new TeamDirectory(orm, log);
  const loaded = await directory.loadAll();
  log.info({ teams: loaded }, "team directory loaded");
  directory.start(config.TEAM_DIRECTORY_REFRESH_MS);
  const keys = new TeamKeys(orm, keyring, log, config.VERIFIER_CACHE_MS, directory);
  const teams = new TeamService(orm, keyring, { keys });
  // Changes made through other replicas, at once (the refresh above is the fallback).
  const changes = followTeamChanges(config.databaseUrl, keys, directory, log);
  const apiKeys = new ApiKeyService(orm, log);
  const audit = new AuditLog(orm);
  // KEK rotation through the admin API (`pulsegate kek reseal`): a short-lived plain pg pool.
  const resealSecrets = async () => {
    const pool = createPgPool({ url: config.databaseUrl, max: 1 });
    try {
      return { ...(await resealTeams(pool, keyring)), kekId: keyring.current.id };
    } finally {
      await pool.end();
    }
  };
  const grpcServices: ServiceBinding[] = [authServiceBinding(log, teams, keys, "main", apiKeys, audit, resealSecrets)];
  // Sign only, on SIGNING_GRPC_LISTEN_ADDR (alerts alone may reach it); with its own grpc.health.v1.
  const signingGrpcServices: ServiceBinding[] = [
    authServiceBinding(log, teams, keys, "signing", apiKeys, audit, resealSecrets),
  ];
  return {
    grpcServices,
    signingGrpcServices,
    orm,
    directory,
    changes,
    close: async () => {
      await changes.close();
      await directory.stop();
      await orm.close();
    },
  };
}
