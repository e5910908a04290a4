// `npm start`: runs every service as its own process on this machine.
// Uses DATABASE_URL / REDIS_URL when set, else the local defaults when they
// answer, else an embedded PostgreSQL (PGlite) and in-process rate limits.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { probePostgres, probeRedis } from "./lib/probe.ts";

const root = resolve(import.meta.dirname, "..");
const say = (line: string) => process.stdout.write(`[pulsegate] ${line}\n`);

const LOCAL_POSTGRES = "postgres://postgres@127.0.0.1:5432/pulsegate";
const LOCAL_REDIS = "redis://127.0.0.1:6379";
// `npm start -- --embedded` skips the local servers, as on a machine without them.
const forceEmbedded = process.argv.includes("--embedded");

async function chooseDatabase(): Promise<{ url: string; close?: () => Promise<void> }> {
  if (process.env.DATABASE_URL) {
    say(`PostgreSQL: ${redactUrl(process.env.DATABASE_URL)} (DATABASE_URL)`);
    return { url: process.env.DATABASE_URL };
  }
  if (!forceEmbedded && (await probePostgres(LOCAL_POSTGRES))) {
    say(`PostgreSQL: ${LOCAL_POSTGRES} (local server; database created if missing)`);
    return { url: LOCAL_POSTGRES };
  }
  const dataDir = resolve(root, process.env.PULSEGATE_DATA_DIR ?? ".data/pglite");
  mkdirSync(dataDir, { recursive: true });
  const { startEmbeddedPostgres } = await import("@pulsegate/db/embedded");
  const embedded = await startEmbeddedPostgres(dataDir, Number(process.env.EMBEDDED_PG_PORT ?? 54329));
  say(`PostgreSQL: none reachable, using EMBEDDED PGlite at ${embedded.url} (data in ${dataDir})`);
  return embedded;
}

async function chooseRedis(): Promise<string> {
  if (process.env.REDIS_URL) {
    say(`Redis: ${redactUrl(process.env.REDIS_URL)} (REDIS_URL)`);
    return process.env.REDIS_URL;
  }
  if (!forceEmbedded && (await probeRedis(LOCAL_REDIS))) {
    say(`Redis: ${LOCAL_REDIS} (local server)`);
    return LOCAL_REDIS;
  }
  // The gateway keeps trying this address and, while nothing answers, limits
  // in process: start a Redis later and limits become shared without a restart.
  say(`Redis: none reachable at ${LOCAL_REDIS}, rate limits are IN-PROCESS (per gateway replica) until one answers`);
  return LOCAL_REDIS;
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
const database = await chooseDatabase();
const redisUrl = await chooseRedis();
const adminToken = process.env.ADMIN_TOKEN ?? randomBytes(24).toString("base64url");
if (!process.env.SECRET_KEK) {
  say("SECRET_KEK not set: sealing secrets with the PUBLIC development key (never do this in production).");
}
const port = Number(process.env.PORT ?? 8080);
const embedded = Boolean(database.close);
const shared = {
  ...process.env,
  DATABASE_URL: database.url,
  REDIS_URL: redisUrl,
  ADMIN_TOKEN: adminToken,
  // Locally, notifications may go to receivers on this machine or network.
  NOTIFY_ALLOW_PRIVATE_NETWORKS: process.env.NOTIFY_ALLOW_PRIVATE_NETWORKS ?? (production ? "false" : "true"),
  // The embedded database runs one query at a time; small pools are plenty.
  ...(embedded ? { DB_POOL_MAX: "4" } : {}),
};

// One address per gRPC service: it listens there and the others dial it.
const addresses = {
  AUTH_GRPC_ADDR: process.env.AUTH_GRPC_ADDR ?? "127.0.0.1:50051",
  ALERTS_GRPC_ADDR: process.env.ALERTS_GRPC_ADDR ?? "127.0.0.1:50052",
  MONITORS_GRPC_ADDR: process.env.MONITORS_GRPC_ADDR ?? "127.0.0.1:50053",
};
Object.assign(shared, addresses);

const services: { name: string; env: Record<string, string> }[] = [
  { name: "auth", env: { GRPC_LISTEN_ADDR: addresses.AUTH_GRPC_ADDR } },
  { name: "alerts", env: { GRPC_LISTEN_ADDR: addresses.ALERTS_GRPC_ADDR } },
  { name: "monitors", env: { GRPC_LISTEN_ADDR: addresses.MONITORS_GRPC_ADDR } },
  { name: "gateway", env: { PORT: String(port) } },
];

const children: ChildProcess[] = [];
let stopping = false;

function stopAll(code: number): void {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill("SIGTERM");
  const exit = () => void (database.close?.() ?? Promise.resolve()).finally(() => process.exit(code));
  Promise.all(children.map((child) => new Promise((done) => child.once("exit", done)))).then(exit);
  setTimeout(exit, 15_000).unref();
}

for (const service of services) {
  const child = spawn(
    process.execPath,
    ["--import", "@pulsegate/telemetry/register", `services/${service.name}/src/main.ts`],
    {
      cwd: root,
      env: { ...shared, OTEL_SERVICE_NAME: `pulsegate-${service.name}`, ...service.env },
      stdio: ["ignore", "inherit", "inherit"],
    },
  );
  children.push(child);
  child.once("exit", (code, signal) => {
    if (stopping) return;
    say(`${service.name} exited (${signal ?? code}); stopping everything.`);
    stopAll(1);
  });
}

process.once("SIGINT", () => stopAll(0));
process.once("SIGTERM", () => stopAll(0));

const base = `http://127.0.0.1:${port}`;
for (let attempt = 0; attempt < 120 && !stopping; attempt++) {
  const ready = await fetch(`${base}/readyz`).then(
    (response) => response.ok,
    () => false,
  );
  if (ready) {
    say(`ready: gateway at ${base}`);
    if (!production) say(`admin token (development): ${adminToken}`);
    say("Ctrl-C stops every service.");
    break;
  }
  await new Promise((done) => setTimeout(done, 500));
}
