import { type ChildProcess, spawn } from "node:child_process";
import { exponentialDelay } from "@pulsegate/runtime/backoff";

export type ServiceProcess = {
  /** The process's name in messages: `alerts`, or `alerts-2` for a second replica. */
  name: string;
  /** The service it runs (services/<service>/src/main.ts). */
  service: string;
  env: NodeJS.ProcessEnv;
};

export type SupervisorOptions = {
  root: string;
  services: ServiceProcess[];
  say: (line: string) => void;
  /** After SIGTERM, how long the services get to drain before they are killed. */
  stopTimeoutMs: number;
  /** Runs once every service has exited (the embedded database closes here). */
  afterStop: () => Promise<void>;
};

/** Restarts of a crashed process wait 1 s, 2 s, 4 s … up to 30 s, as a Deployment's back-off does. */
const RESTART_BACKOFF = { base: 1_000, max: 30_000 };
/** A process that ran this long before exiting is restarted at the first step again. */
const RESTART_RESET_MS = 60_000;

/**
 * Runs each service as a child process in this process group and stops them
 * together. The first SIGINT/SIGTERM is forwarded as one SIGTERM per
 * service, never more: when the whole group is signalled (Ctrl-C, kill
 * -TERM -PGID, a supervisor) each service has had one already, and a service
 * takes a second as "still draining" but a third as "force". A second
 * signal here is only acknowledged; a third kills every service.
 *
 * Until `started()` is called (the stack answered ready once), a service that
 * exits stops the rest: a port in use or a bad setting is not worth retrying.
 * After it, a process that exits is started again with back-off and said so,
 * as a Deployment would restart its pod, while the others keep serving. The
 * exit code says whether every service stopped cleanly.
 */
export function superviseServices(options: SupervisorOptions): {
  readonly stopping: boolean;
  /** Starts more processes under the same rules (the gateways, once the gRPC services listen). */
  add(services: ServiceProcess[]): void;
  started(): void;
} {
  const { say } = options;
  const running = new Map<string, ChildProcess>();
  const pendingRestarts = new Set<NodeJS.Timeout>();
  let stopping = false;
  let started = false;
  let failed = false;
  let finish: ((code: number) => void) | undefined;

  const stopAll = (code: number) => {
    if (stopping) return;
    stopping = true;
    if (code !== 0) failed = true;
    for (const timer of pendingRestarts) clearTimeout(timer);
    pendingRestarts.clear();
    for (const child of running.values()) child.kill("SIGTERM");
    const timer = setTimeout(() => {
      say(`still running after ${options.stopTimeoutMs} ms: ${[...running.keys()].join(", ")}; killing them.`);
      killAll();
    }, options.stopTimeoutMs);
    timer.unref();
    finish = (exitCode) => {
      clearTimeout(timer);
      void options.afterStop().finally(() => process.exit(exitCode));
    };
    if (running.size === 0) finish(failed ? 1 : 0);
  };

  const killAll = () => {
    failed = true;
    for (const child of running.values()) child.kill("SIGKILL");
  };

  const run = (service: ServiceProcess, restarts: number) => {
    const child = spawn(
      process.execPath,
      [
        "--conditions=@pulsegate/source",
        "--import",
        "@pulsegate/telemetry/register",
        `services/${service.service}/src/main.ts`,
      ],
      { cwd: options.root, env: service.env, stdio: ["ignore", "inherit", "inherit"] },
    );
    const since = Date.now();
    running.set(service.name, child);
    child.once("exit", (code, signal) => {
      running.delete(service.name);
      const how = signal ?? code;
      if (stopping) {
        if (code !== 0) {
          say(`${service.name} stopped uncleanly (${how}).`);
          failed = true;
        }
        if (running.size === 0) finish?.(failed ? 1 : 0);
      } else if (!started) {
        say(`${service.name} exited (${how}); stopping everything (the stack was not ready yet).`);
        stopAll(1);
      } else {
        const attempt = Date.now() - since >= RESTART_RESET_MS ? 1 : restarts + 1;
        const delayMs = exponentialDelay(attempt, RESTART_BACKOFF);
        say(`${service.name} exited (${how}); starting it again in ${delayMs / 1000} s (restart ${attempt}).`);
        const timer = setTimeout(() => {
          pendingRestarts.delete(timer);
          if (!stopping) run(service, attempt);
        }, delayMs);
        pendingRestarts.add(timer);
      }
    });
  };
  for (const service of options.services) run(service, 0);

  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    signals += 1;
    if (signals === 1) {
      say(`${signal}: stopping every service; requests in flight are answered first.`);
      stopAll(0);
    } else if (signals === 2) {
      say(`${signal}: still stopping (${[...running.keys()].join(", ") || "nothing"} running); another signal forces.`);
    } else {
      say(`${signal}: forced; killing every service.`);
      killAll();
    }
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);

  return {
    get stopping() {
      return stopping;
    },
    add(services) {
      if (!stopping) for (const service of services) run(service, 0);
    },
    started() {
      started = true;
    },
  };
}
