// `npm start`: runs every service as its own process on this machine.
// Uses DATABASE_URL / REDIS_URL when set, else the local defaults when they
// answer, else an embedded PostgreSQL (PGlite) and no Redis (rate limits in
// process, no ping spool). `--embedded` uses no local server at all.
import { existsSync, mkdirSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { type AdminToken, developmentAdminToken } from "./lib/admin-token.ts";
import { probePostgres, probeRedis, probeTcp } from "./lib/probe.ts";
import { stackReadiness } from "./lib/stack-ready.ts";
import { replicaAddresses, replicasFrom, startAddresses } from "./lib/start-addresses.ts";
import { superviseServices } from "./lib/supervise.ts";

const root = resolve(import.meta.dirname, "..");
const say = (line: string) => process.stdout.write(`[pulsegate] ${line}\n`);
const began = performance.now();
/** Seconds since `since` (default: since npm start began), for the progress lines. */
const took = (since = began) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
/** The development admin token and the embedded database live here (PULSEGATE_DATA_DIR, default .data). */
const dataDir = resolve(root, process.env.PULSEGATE_DATA_DIR || ".data");
/** A path as the developer would type it: relative to the repository when inside it. */
const shown = (path: string) => (path.startsWith(`${root}/`) ? relative(root, path) : path);

const LOCAL_POSTGRES = "postgres://postgres@127.0.0.1:5432/pulsegate";
const LOCAL_REDIS = "redis://127.0.0.1:6379";
// `npm start -- --embedded` skips the local servers, as on a machine without them.
const forceEmbedded = process.argv.includes("--embedded");
// `npm start -- --replicas N`: N processes of every service, as on the cluster.
const replicaCount = replicasFrom(process.argv.slice(2));
if ("error" in replicaCount) {
  say(replicaCount.error);
  process.exit(1);
}
const { replicas } = replicaCount;

async function chooseDatabase(): Promise<{ url: string; close?: () => Promise<void> }> {
  if (process.env.DATABASE_URL) {
    await createDatabase(process.env.DATABASE_URL);
    say(`PostgreSQL: ${redactUrl(process.env.DATABASE_URL)} (DATABASE_URL; database created if missing)`);
    return { url: process.env.DATABASE_URL };
  }
  if (!forceEmbedded && (await probePostgres(LOCAL_POSTGRES))) {
    await createDatabase(LOCAL_POSTGRES);
    say(`PostgreSQL: ${LOCAL_POSTGRES} (local server; database created if missing)`);
    return { url: LOCAL_POSTGRES };
  }
  const pgliteDir = join(dataDir, "pglite");
  // Its first start runs initdb inside PGlite's WebAssembly PostgreSQL: tens of seconds on a slow machine.
  const fresh = !existsSync(join(pgliteDir, "PG_VERSION"));
  mkdirSync(pgliteDir, { recursive: true });
  const why = forceEmbedded ? "--embedded" : "none reachable";
  say(
    `PostgreSQL: ${why}, using EMBEDDED PGlite (data in ${shown(pgliteDir)}): ${fresh ? "creating the database, once (a while on a slow machine)" : "opening it"}…`,
  );
  const since = performance.now();
  // Loaded only here: PGlite is a devDependency of the repository, never in a service's tree.
  const { startEmbeddedPostgres } = await import("./lib/embedded-postgres.ts");
  const embedded = await startEmbeddedPostgres(pgliteDir, Number(process.env.EMBEDDED_PG_PORT ?? 54329));
  say(`PostgreSQL: EMBEDDED PGlite at ${embedded.url}, ${fresh ? "created" : "opened"} in ${took(since)}`);
  return embedded;
}

/** Once, before the services start: four services creating it at once used to race. */
async function createDatabase(url: string): Promise<void> {
  const { ensureDatabase } = await import("@pulsegate/db");
  try {
    await ensureDatabase(url);
  } catch (error) {
    say(`PostgreSQL at ${redactUrl(url)}: cannot open or create the database (${(error as Error).message}).`);
    process.exit(1);
  }
}

/** "" means no Redis: the gateway limits and keeps dashboard sessions in process, monitors has no ping spool. */
async function chooseRedis(): Promise<string> {
  const none =
    "rate limits and dashboard sessions IN PROCESS (per gateway replica), no ping spool (pings get 503 while PostgreSQL is away)";
  if (process.env.REDIS_URL !== undefined) {
    if (process.env.REDIS_URL === "") say(`Redis: none (REDIS_URL is empty): ${none}`);
    else say(`Redis: ${redactUrl(process.env.REDIS_URL)} (REDIS_URL)`);
    return process.env.REDIS_URL;
  }
  if (forceEmbedded) {
    say(`Redis: none (embedded mode): ${none}`);
    return "";
  }
  if (await probeRedis(LOCAL_REDIS)) {
    say(`Redis: ${LOCAL_REDIS} (local server)`);
    return LOCAL_REDIS;
  }
  say(`Redis: none (nothing answers at ${LOCAL_REDIS}): ${none}`);
  return "";
}

/**
 * METRICS_PORT=N: the gateway N, auth N+1, alerts N+2, monitors N+3 (DESIGN §9); replica i (from 0)
 * of each 4·i above that.
 */
function metricsPorts(): ((service: string, replica: number) => number) | undefined {
  const raw = process.env.METRICS_PORT;
  if (!raw) return undefined;
  const base = Number(raw);
  const last = 65_536 - 4 * replicas;
  if (!Number.isInteger(base) || base < 1 || base > last) {
    say(`METRICS_PORT must be a port number from 1 to ${last} (${4 * replicas} ports from it are used), got "${raw}".`);
    process.exit(1);
  }
  const offsets: Record<string, number> = { gateway: 0, auth: 1, alerts: 2, monitors: 3 };
  return (service, replica) => base + 4 * replica + (offsets[service] ?? 0);
}

function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(unparsable URL)";
  }
}

const production = process.env.NODE_ENV === "production";
if (production && (!process.env.ADMIN_TOKEN || !process.env.SECRET_KEK)) {
  say("NODE_ENV=production needs ADMIN_TOKEN and SECRET_KEK; refusing to start.");
  process.exit(1);
}
const metrics = metricsPorts();
let admin: AdminToken;
try {
  admin = developmentAdminToken(process.env, dataDir);
} catch (error) {
  say((error as Error).message);
  process.exit(1);
}
const adminToken = admin.token;
if (admin.source !== "environment" && admin.tightened) {
  say(`${shown(admin.file)} could be read by others (mode ${admin.tightened}); it is 0600 now.`);
}
const database = await chooseDatabase();
const redisUrl = await chooseRedis();
if (!process.env.SECRET_KEK) {
  say("SECRET_KEK not set: sealing secrets with the PUBLIC development key (never do this in production).");
}
const port = Number(process.env.PORT ?? 8080);
const embedded = Boolean(database.close);
// How long the gateway may take to answer what it has begun: a request's deadline, then a margin.
const gatewayDrainMs = (Number(process.env.REQUEST_TIMEOUT_MS) || 30_000) + 5_000;
const grpcDrainMs = process.env.GRPC_DRAIN_MS ?? String(gatewayDrainMs);
// Each process's whole shutdown (SHUTDOWN_TIMEOUT_MS), unless set: the gateway's outlasts its drain,
// a gRPC service's its wait for the gateway, each with room for the steps after.
const shutdownMs = {
  gateway: Number(process.env.SHUTDOWN_TIMEOUT_MS ?? gatewayDrainMs + 5_000),
  grpc: Number(process.env.SHUTDOWN_TIMEOUT_MS ?? (Number(grpcDrainMs) || 0) + 10_000),
};
const shared: NodeJS.ProcessEnv = {
  ...process.env,
  DATABASE_URL: database.url,
  REDIS_URL: redisUrl,
  ADMIN_TOKEN: adminToken,
  // Locally, notifications may go to receivers on this machine or network.
  NOTIFY_ALLOW_PRIVATE_NETWORKS: process.env.NOTIFY_ALLOW_PRIVATE_NETWORKS ?? (production ? "false" : "true"),
  // gRPC services keep serving after SIGTERM until the gateway (their caller) has drained and
  // gone, at most this long: every process gets the signal at once here.
  GRPC_DRAIN_MS: grpcDrainMs,
  // Node caches the services' compiled code here: later starts take a second less.
  NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? resolve(root, "node_modules/.cache/node-compile-cache"),
  // The embedded database runs one query at a time; small pools are plenty.
  ...(embedded ? { DB_POOL_MAX: "4" } : {}),
};

// This machine only unless HOST or *_GRPC_ADDR say otherwise: the admin token is printed below.
// One address per gRPC listener: its service listens there and the others dial it.
const { host, reachAt, grpc } = startAddresses(process.env);
let replicaGrpc: ReturnType<typeof replicaAddresses>;
try {
  replicaGrpc = replicaAddresses(grpc, replicas);
} catch (error) {
  say((error as Error).message);
  process.exit(1);
}
// Every client dials every replica of what it calls (round_robin over the list).
Object.assign(shared, replicaGrpc.dial);
const gatewayPorts = Array.from({ length: replicas }, (_, replica) => port + replica);

const services = Array.from({ length: replicas }, (_, replica) => {
  const listen = replicaGrpc.listen(replica);
  return [
    {
      service: "auth",
      env: { GRPC_LISTEN_ADDR: listen.AUTH_GRPC_ADDR, SIGNING_GRPC_LISTEN_ADDR: listen.AUTH_SIGNING_GRPC_ADDR },
    },
    { service: "alerts", env: { GRPC_LISTEN_ADDR: listen.ALERTS_GRPC_ADDR } },
    { service: "monitors", env: { GRPC_LISTEN_ADDR: listen.MONITORS_GRPC_ADDR } },
    { service: "gateway", env: { PORT: String(gatewayPorts[replica]), HOST: host } },
  ].map(({ service, env }) => ({
    name: replicas === 1 ? service : `${service}-${replica + 1}`,
    service,
    env: {
      ...shared,
      OTEL_SERVICE_NAME: `pulsegate-${service}`,
      SHUTDOWN_TIMEOUT_MS: String(service === "gateway" ? shutdownMs.gateway : shutdownMs.grpc),
      ...(metrics ? { METRICS_PORT: String(metrics(service, replica)) } : {}),
      ...env,
    },
  }));
}).flat();

if (metrics) {
  const byPort = [...services].sort((a, b) => Number(a.env.METRICS_PORT) - Number(b.env.METRICS_PORT));
  say(`metrics: /metrics on ${byPort.map((service) => `${service.name} :${service.env.METRICS_PORT}`).join(", ")}`);
}

const grpcServices = services.filter((service) => service.service !== "gateway");
const each = replicas === 1 ? "" : `${replicas} of each of `;
say(`starting ${each}auth, alerts and monitors: each applies its pending migrations, then listens…`);
const supervisor = superviseServices({
  root,
  services: grpcServices,
  say,
  // Every process exits within its shutdown budget; past this the supervisor gives up on it.
  stopTimeoutMs: Math.max(shutdownMs.gateway, shutdownMs.grpc) + 5_000,
  afterStop: () => database.close?.() ?? Promise.resolve(),
});

// The gateways start once every gRPC replica listens: a client whose first connection to a replica
// failed waits out a growing back-off before trying that replica again, and would leave it idle.
// Each process is named once it listens (auth on both of its listeners), so a slow start shows where it is.
let waiting = grpcServices.map((service) => ({
  name: service.name,
  addresses: [service.env.GRPC_LISTEN_ADDR, service.env.SIGNING_GRPC_LISTEN_ADDR].filter((address): address is string =>
    Boolean(address),
  ),
}));
const listenDeadline = Date.now() + 60_000;
while (!supervisor.stopping && waiting.length > 0 && Date.now() < listenDeadline) {
  const listening = await Promise.all(
    waiting.map(async (service) =>
      (await Promise.all(service.addresses.map((address) => probeTcp(address)))).every(Boolean),
    ),
  );
  for (const [index, service] of waiting.entries()) {
    if (listening[index]) say(`${service.name} listening on ${service.addresses.join(" and ")} (${took()})`);
  }
  waiting = waiting.filter((_, index) => !listening[index]);
  if (waiting.length > 0) await new Promise((done) => setTimeout(done, 100));
}
if (waiting.length > 0 && !supervisor.stopping) {
  say(`${waiting.map((service) => service.name).join(", ")} not listening after 60 s; starting the gateway anyway.`);
}
say(replicas === 1 ? "starting the gateway…" : `starting ${replicas} gateways…`);
supervisor.add(services.filter((service) => service.service === "gateway"));

const bases = gatewayPorts.map((gatewayPort) => `http://${reachAt}:${gatewayPort}`);
const base = bases[0] as string;
/** Ready when every gateway is, each with every peer up; the first one not ready is the one reported. */
const everyGateway = async () => {
  for (const url of bases) {
    const readiness = await stackReadiness(url);
    if (!readiness.ready) return readiness;
  }
  return stackReadiness(base);
};
const deadline = Date.now() + 120_000;
let readiness = await everyGateway();
while (!readiness.ready && !supervisor.stopping && Date.now() < deadline) {
  await new Promise((done) => setTimeout(done, 200));
  readiness = await everyGateway();
}
if (readiness.ready && !supervisor.stopping) {
  // From now on a process that exits is started again (with back-off), as a Deployment would.
  supervisor.started();
  say(`ready: gateway at ${base} (${took()} after the start)`);
  if (replicas > 1) {
    say(
      `replicas: ${replicas} of every service; gateways at ${bases.join(", ")}; each gRPC client balances over every replica`,
    );
  }
  const reach = process.env.HOST ? "(HOST)" : "(this machine only; HOST=:: listens on every interface)";
  say(`gateway listening on ${host}:${gatewayPorts.join(", ")} ${reach}`);
  say(`dashboard: ${base}/dashboard (sign in with the admin token or a team API key)`);
  if (readiness.spoolDurability && readiness.spoolDurability !== "durable" && readiness.spoolDurability !== "none") {
    // Fine on a laptop; in production spooled pings must survive a Redis restart (docs/monitors.md).
    say(`ping spool: ${readiness.spoolDurability} (Redis without appendonly yes + appendfsync always)`);
  }
  if (!production) say(`admin token (development): ${adminToken} ${whereTheTokenIs(admin)}`);
  say("Ctrl-C stops every service once requests in flight are answered; Ctrl-C again forces.");
} else if (!supervisor.stopping) {
  say(`not ready after 120 s (gateway /readyz: ${readiness.detail}); still running, Ctrl-C stops it.`);
}

/** After the token in the banner: where it came from, and whether the next start will have it. */
function whereTheTokenIs(token: AdminToken): string {
  if (token.source === "environment") return "(ADMIN_TOKEN)";
  const file = shown(token.file);
  return token.source === "created"
    ? `(new; kept in ${file}, so the next start has it too)`
    : `(kept in ${file} since an earlier start)`;
}
