import { type ChildProcess, spawn } from "node:child_process";

export type ServiceProcess = { name: string; env: NodeJS.ProcessEnv };

export type SupervisorOptions = {
  root: string;
  services: ServiceProcess[];
  say: (line: string) => void;
  /** After SIGTERM, how long the services get to drain before they are killed. */
  stopTimeoutMs: number;
  /** Runs once every service has exited (the embedded database closes here). */
  afterStop: () => Promise<void>;
};

/**
 * Runs each service as a child process in this process group and stops them
 * together. The first SIGINT/SIGTERM is forwarded as one SIGTERM per
 * service, never more: when the whole group is signalled (Ctrl-C, kill
 * -TERM -PGID, a supervisor) each service has had one already, and a service
 * takes a second as "still draining" but a third as "force". A second
 * signal here is only acknowledged; a third kills every service.
 * Any service that exits on its own stops the rest, and the exit code says
 * whether every service stopped cleanly.
 */
export function superviseServices(options: SupervisorOptions): { readonly stopping: boolean } {
  const { say } = options;
  const running = new Map<string, ChildProcess>();
  let stopping = false;
  let failed = false;
  let finish: ((code: number) => void) | undefined;

  const stopAll = (code: number) => {
    if (stopping) return;
    stopping = true;
    if (code !== 0) failed = true;
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

  for (const service of options.services) {
    const child = spawn(
      process.execPath,
      ["--import", "@pulsegate/telemetry/register", `services/${service.name}/src/main.ts`],
      { cwd: options.root, env: service.env, stdio: ["ignore", "inherit", "inherit"] },
    );
    running.set(service.name, child);
    child.once("exit", (code, signal) => {
      running.delete(service.name);
      if (!stopping) {
        say(`${service.name} exited (${signal ?? code}); stopping everything.`);
        stopAll(1);
      } else if (code !== 0) {
        say(`${service.name} stopped uncleanly (${signal ?? code}).`);
        failed = true;
      }
      if (stopping && running.size === 0) finish?.(failed ? 1 : 0);
    });
  }

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
  };
}
